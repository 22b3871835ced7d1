// The platform-error line: pino's layout, the service's level respected, and nothing but fixed fields.
import { describe, expect, it } from 'vitest';
import { errorLineWriter } from '../../src/http/error-log.js';
import { buildTestApp } from '../helpers/app.js';

function capture() {
  const lines: string[] = [];
  return { write: (line: string) => lines.push(line), lines, parsed: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
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
});
