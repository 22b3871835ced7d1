// `@palantir/compute-module` 0.2.7 across a reset (issue 25): a module whose runtime was created at run time
// (run-module) keeps serving after POST /_emulate/platform/reset, its idle poll rate stays that of the long-poll
// hold (under 5 a second), and no poll is refused (no 404 or 401 loop).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_RID, MUX, RUNTIME_ID, startLiveModule, type LiveModule } from '../compute-modules/live.js';

let live: LiveModule;
const refusedPolls: number[] = [];
beforeAll(async () => {
  live = await startLiveModule(500, { atRunTime: true });
  live.emulator.server.app.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.endsWith(`/${RUNTIME_ID}/job`)) res.once('finish', () => void (res.statusCode >= 400 && refusedPolls.push(res.statusCode)));
  });
});
afterAll(async () => {
  await live.stop();
});

async function token(): Promise<string> {
  const res = await fetch(`${live.emulator.url}/_emulate/platform/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin' }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

async function add(a: number, b: number): Promise<string> {
  const res = await fetch(`${live.emulator.url}${MUX}/compute-modules/jobs/execute`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await token()}`, 'content-type': 'application/json' },
    body: JSON.stringify({ deployedAppRid: APP_RID, queryType: 'add', query: { a, b } }),
  });
  return `${res.status} ${await res.text()}`;
}

const polls = () => live.seen.filter((r) => r === `GET /_emulate/platform/compute-modules/runtimes/${RUNTIME_ID}/job`).length;

describe('the TypeScript runtime SDK across a reset', () => {
  it('keeps serving, polls idle at the hold rate, and is never refused', async () => {
    expect(await add(2, 3)).toBe('200 5');
    for (let round = 0; round < 3; round++) {
      const reset = await fetch(`${live.emulator.url}/_emulate/platform/reset`, { method: 'POST' });
      expect(reset.status).toBe(200);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    const before = polls();
    await new Promise((resolve) => setTimeout(resolve, 2000)); // the measurement: two idle seconds
    const perSecond = (polls() - before) / 2;
    expect(perSecond).toBeLessThan(5);
    expect(perSecond).toBeGreaterThan(0);
    expect(await add(40, 2)).toBe('200 42');
    expect(refusedPolls).toEqual([]);
  });
});
