// The platform-error line: pino's layout, the service's level respected, and nothing but fixed fields.
import { describe, expect, it } from 'vitest';
import { errorLineWriter } from '../../src/http/error-log.js';
import { buildTestApp } from '../helpers/app.js';

function capture() {
  const lines: string[] = [];
  return { write: (line: string) => lines.push(line), lines, parsed: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

/** A destination that takes lines in parts, as the default one does. */
function timedCapture() {
  const sink = capture();
  return {
    ...sink,
    writeTimed: (head: Uint8Array, time: number, middle: string, tail: Uint8Array) =>
      void sink.lines.push(`${Buffer.from(head)}${time}${middle}${Buffer.from(tail)}`),
  };
}

const FIELDS = { reqId: 'req-7', errorInstanceId: '0b7f6a52-8f0e-4a8e-9c43-4c6f1c1a2b3d', errorCode: 'NOT_FOUND', errorName: 'NotFound' };

describe('platform-error log line', () => {
  it('has the keys, order and values of the line pino writes for the same fields', async () => {
    const ours = capture();
    errorLineWriter('info', ours)('info', FIELDS);
    const pinos = capture();
    const { app } = await buildTestApp({ logLevel: 'info', logDestination: pinos });
    app.log.info(FIELDS, 'platform error');
    const [mine] = ours.parsed();
    const [theirs] = pinos.parsed().filter((l) => l.msg === 'platform error');
    expect(Object.keys(mine!)).toEqual(Object.keys(theirs!));
    expect({ ...mine, time: 0 }).toEqual({ ...theirs, time: 0 });
    expect(Math.abs(Number(mine!.time) - Date.now())).toBeLessThan(60_000);
    expect(ours.lines[0]!.endsWith('}\n')).toBe(true);
  });

  it('writes info lines at info and below, error lines up to error, nothing when silent', () => {
    const written = (configured: 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent') => {
      const sink = capture();
      const write = errorLineWriter(configured, sink);
      write('info', FIELDS);
      write('error', FIELDS);
      return sink.parsed().map((l) => l.level);
    };
    expect(written('debug')).toEqual([30, 50]);
    expect(written('info')).toEqual([30, 50]);
    expect(written('warn')).toEqual([50]);
    expect(written('error')).toEqual([50]);
    expect(written('fatal')).toEqual([]);
    expect(written('silent')).toEqual([]);
  });

  it('escapes what it quotes', () => {
    const sink = capture();
    errorLineWriter('info', sink)('info', { ...FIELDS, reqId: 'a"b\\c\n', errorName: 'Odd"Name' });
    expect(sink.parsed()[0]).toMatchObject({ reqId: 'a"b\\c\n', errorName: 'Odd"Name' });
  });

  it('writes a repeated line as the whole line, its part after the time made once per refusal, path, status and method', () => {
    const whole = capture();
    const timed = timedCapture();
    const key = Object.freeze({});
    const line = { ...FIELDS, errorInstanceId: undefined, errorName: undefined, status: 401, method: 'GET', path: '/a', reason: 'no "token"' };
    let made = 0;
    const build = () => (made++, line);
    const write = errorLineWriter('info', timed);
    write.repeated('info', key, '/a', 401, 'GET', build);
    write.repeated('info', key, '/a', 401, 'GET', build);
    expect(made).toBe(1);
    write.repeated('info', key, '/a', 401, 'POST', () => ({ ...build(), method: 'POST' }));
    expect(made).toBe(2);
    errorLineWriter('info', whole)('info', line);
    const [first, second, post] = timed.parsed();
    expect({ ...first, time: 0 }).toEqual({ ...whole.parsed()[0], time: 0 });
    expect(Math.abs(Number(first!.time) - Date.now())).toBeLessThan(60_000);
    expect(second).toMatchObject({ method: 'GET' });
    expect(post).toMatchObject({ method: 'POST' });
    expect(timed.lines.every((l) => l.endsWith('}\n'))).toBe(true);
    // A destination without writeTimed gets the whole line; a level the service leaves out, nothing.
    errorLineWriter('info', whole).repeated('info', key, '/a', 401, 'GET', build);
    errorLineWriter('warn', whole).repeated('info', key, '/a', 401, 'GET', build);
    expect(whole.parsed().map((l) => ({ ...l, time: 0 }))).toEqual([
      { ...first, time: 0 },
      { ...first, time: 0 },
    ]);
  });

  it('writes a line in parts as the whole line, and never reuses a kept tail for other words', () => {
    const whole = capture();
    const timed = timedCapture();
    const lines = [
      { ...FIELDS, status: 404, method: 'GET', path: '/x', reason: 'gone' },
      { ...FIELDS, reqId: 'req-8', errorInstanceId: undefined, status: 404, method: 'GET', path: '/x', reason: 'gone' },
      { ...FIELDS, status: 404, method: 'GET', path: '/y', reason: 'gone' },
      { ...FIELDS, status: 400, method: 'PUT', path: '/y', reason: 'gone', errorName: 'Other' },
      { ...FIELDS, reqId: 'é"', status: 404, method: 'GET', path: '/x', reason: 'gone' },
    ];
    for (const line of lines) {
      errorLineWriter('info', whole)('info', line);
      errorLineWriter('info', timed)('info', line);
      errorLineWriter('info', timed)('info', line);
    }
    const byParts = timed.parsed().map((l): Record<string, unknown> => ({ ...l, time: 0 }));
    const made = whole.parsed().map((l): Record<string, unknown> => ({ ...l, time: 0 }));
    expect(byParts).toEqual(made.flatMap((l) => [l, l]));
    expect(made.map((l) => [l.path, l.status, l.msg])).toEqual([
      ['/x', 404, 'platform error'],
      ['/x', 404, 'request refused'],
      ['/y', 404, 'platform error'],
      ['/y', 400, 'platform error'],
      ['/x', 404, 'platform error'],
    ]);
  });
});
