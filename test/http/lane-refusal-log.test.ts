// A fast lane's refusal is logged on the line its route's refusal would have had (docs/contracts.md §7: one info
// line per refusal, with the reason), through the byte-copied path that repeated refusals take.
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildTestApp } from '../helpers/app.js';

const URL_PATH = '/api/v2/admin/users/getCurrent';

function timedCapture() {
  const lines: string[] = [];
  let timed = 0;
  return {
    write: (line: string) => void lines.push(line),
    writeTimed: (head: Uint8Array, time: number, middle: string, tail: Uint8Array) =>
      void (timed++, lines.push(`${Buffer.from(head)}${time}${middle}${Buffer.from(tail)}`)),
    refusals: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === 'request refused'),
    timed: () => timed,
  };
}

let app: FastifyInstance | undefined;
afterEach(async () => void (await app?.close()));

describe('a lane refusal log line', () => {
  it('names the reason of each refusal, as the route logs it, one line per refusal', async () => {
    const log = timedCapture();
    ({ app } = await buildTestApp({ logLevel: 'info', logDestination: log }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const sent: Array<Record<string, string>> = [{}, {}, { authorization: 'Bearer platform_neverIssued' }];
    for (const headers of sent) expect((await fetch(base + URL_PATH, { headers })).status).toBe(401);
    // The route's own refusal of the same request, for comparison (inject skips the lanes).
    await app.inject({ url: URL_PATH });

    const [none, again, unknown, routed] = log.refusals();
    // Every line came in parts (the route's too, through the kept tails).
    expect(log.timed()).toBe(4);
    const without = (l: Record<string, unknown> | undefined) => ({ ...l, time: 0, reqId: '' });
    expect(without(none)).toEqual(without(routed));
    expect(without(again)).toEqual(without(none));
    expect(none).toMatchObject({ level: 30, reqId: 'fast-lane', errorCode: 'unauthenticated', status: 401, method: 'GET', path: URL_PATH });
    expect(String(none!.reason)).toMatch(/^No bearer token/);
    expect(String(unknown!.reason)).toMatch(/not one this service knows/);
    expect(Math.abs(Number(unknown!.time) - Date.now())).toBeLessThan(60_000);
    expect(log.refusals()).toHaveLength(4);
  });
});
