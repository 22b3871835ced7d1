import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../helpers/app.js';

function capture(): { stream: Writable; lines: () => Array<Record<string, unknown>> } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return {
    stream,
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

describe('per-request logger', () => {
  it('still binds the request id to what a request logs', async () => {
    const log = capture();
    const { app } = await buildTestApp({ logLevel: 'debug', logDestination: log.stream });
    const res = await app.inject({ method: 'POST', url: '/_emulate/platform/tokens', payload: { username: 'ghost' } });
    expect(res.statusCode).toBe(404);
    const line = log.lines().find((l) => l.msg === 'platform error');
    expect(line).toMatchObject({ errorName: 'UserNotFound', reqId: expect.any(String) });
    expect(line!.errorInstanceId).toBe(res.json().errorInstanceId);
  });

  it('logs a line per request at debug, with the request id', async () => {
    const log = capture();
    const { app } = await buildTestApp({ logLevel: 'debug', logDestination: log.stream });
    await app.inject({ url: '/_emulate/health' });
    const incoming = log.lines().find((l) => l.msg === 'incoming request');
    expect(incoming).toMatchObject({ reqId: expect.any(String), req: { url: '/_emulate/health' } });
    expect(log.lines().some((l) => l.msg === 'request completed' && l.reqId === incoming!.reqId)).toBe(true);
  });

  it('at info, writes nothing for a served request and one line with the errorInstanceId for a refused one', async () => {
    const log = capture();
    const { app } = await buildTestApp({ logLevel: 'info', logDestination: log.stream });
    await app.inject({ url: '/_emulate/health' });
    expect(log.lines()).toEqual([]);
    const refused = await app.inject({ method: 'POST', url: '/_emulate/platform/tokens', payload: { username: 'ghost' } });
    const bad = await app.inject({ method: 'POST', url: '/_emulate/platform/tokens', headers: { 'content-type': 'application/json' }, payload: '{bad' });
    expect(log.lines().map((l) => [l.level, l.msg, l.errorInstanceId, typeof l.reqId])).toEqual([
      [30, 'platform error', refused.json().errorInstanceId, 'string'],
      [30, 'platform error', bad.json().errorInstanceId, 'string'],
    ]);
  });
});
