// Several instances on one database are one emulator (docs/contracts.md §12): credentials, codes and jobs are shared
// and consumed exactly once, and a change on one instance wakes the waiters of another.
import { countOf } from '../helpers/seed.js';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { TOKEN, basic, codeFor, postForm } from '../oauth/flow.js';
import { APP_RID, MUX, instances, mint, poll, postResult, status, submit } from './helpers.js';

describe('several instances on one PostgreSQL', () => {
  it('start together on a new database: the migrations and the seed run once', async () => {
    const [a, b, c] = await instances(3);
    for (const e of [a!, b!, c!]) expect(countOf(e.server.summary, 'users')).toBe(2); // admin and alice, not three of each
    const tables = await a!.server.store.users.count();
    expect(tables).toBe(2);
  });

  it('a token minted on A works on B, and a revocation on B is seen by A', async () => {
    const [a, b] = await instances(2);
    const token = await mint(a!, 'alice', ['api:admin-read']);
    const me = await fetch(`${b!.url}/api/v2/admin/users/getCurrent`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { username: string }).username).toBe('alice');
    await b!.server.store.tokens.revokeAccess(token);
    const after = await fetch(`${a!.url}/api/v2/admin/users/getCurrent`, { headers: { authorization: `Bearer ${token}` } });
    expect(after.status).toBe(401);
  });

  it('a code issued on A is exchanged exactly once when A and B race for it', async () => {
    const [a, b] = await instances(2);
    const params = { client_id: 'web', response_type: 'code', redirect_uri: 'https://app.example.com/cb' };
    // Issue 25: the loser's replay revokes the grant while the winner is still minting; the winner must still
    // answer 200 (its tokens then revoked by the replay, as RFC 6749 §4.1.2 allows), never both refused.
    for (let round = 0; round < 50; round++) {
      const code = await codeFor(a!.server.app, params, 'alice');
      const exchange = (app: FastifyInstance) => postForm(app, TOKEN, { grant_type: 'authorization_code', code }, basic('web', 's3cret'));
      const answers = await Promise.all([exchange(a!.server.app), exchange(b!.server.app)]);
      const ok = answers.filter((r) => r.statusCode === 200);
      const refused = answers.filter((r) => r.statusCode !== 200);
      expect({ round, ok: ok.length }).toEqual({ round, ok: 1 });
      expect(refused.map((r) => [r.statusCode, r.json().error])).toEqual([[400, 'invalid_grant']]);
      // The replay revoked whatever the winner issued: no token from this code outlives the race.
      expect(await a!.server.store.tokens.findAccess(ok[0]!.json().access_token)).toBeUndefined();
    }
  });

  it("a code is consumed fresh exactly once when both instances' stores race for it", async () => {
    const [a, b] = await instances(2);
    const params = { client_id: 'web', response_type: 'code', redirect_uri: 'https://app.example.com/cb' };
    for (let round = 0; round < 20; round++) {
      const code = await codeFor(a!.server.app, params, 'alice');
      const outcomes = await Promise.all([a!.server.store.oauth.consumeCode(code), b!.server.store.oauth.consumeCode(code)]);
      expect(outcomes.map((o) => o.outcome).sort()).toEqual(['fresh', 'replayed']);
    }
  });

  it('a refresh token is rotated exactly once when both instances race with it', async () => {
    const [a, b] = await instances(2);
    const params = { client_id: 'web', response_type: 'code', redirect_uri: 'https://app.example.com/cb', scope: 'offline_access' };
    const code = await codeFor(a!.server.app, params, 'alice');
    const first = await postForm(a!.server.app, TOKEN, { grant_type: 'authorization_code', code }, basic('web', 's3cret'));
    const refresh = first.json().refresh_token as string;
    const rotate = (app: FastifyInstance) => postForm(app, TOKEN, { grant_type: 'refresh_token', refresh_token: refresh }, basic('web', 's3cret'));
    const answers = await Promise.all([rotate(a!.server.app), rotate(b!.server.app)]);
    expect(answers.filter((r) => r.statusCode === 200).length).toBeLessThanOrEqual(1);
    expect(answers.some((r) => r.statusCode === 400 && r.json().error === 'invalid_grant')).toBe(true);
  });

  it('4 pollers over 2 instances take 2,000 jobs: none lost, none run twice', async () => {
    const [a, b] = await instances(2);
    const token = await mint(a!);
    const TOTAL = 2000;
    const submitted: string[] = [];
    for (let i = 0; i < TOTAL; i += 50) {
      const batch = await Promise.all(Array.from({ length: 50 }, (_, j) => submit((i + j) % 2 ? b! : a!, token)));
      submitted.push(...batch);
    }
    const taken = new Map<string, number>();
    let answered = 0;
    const deadline = Date.now() + 200_000; // pollers stop even if the test fails, so that the instances can close
    const poller = async (e: typeof a) => {
      while (answered < TOTAL && Date.now() < deadline) {
        const jobId = await poll(e!);
        if (!jobId) continue;
        taken.set(jobId, (taken.get(jobId) ?? 0) + 1);
        expect(await postResult(e!, jobId, `done ${jobId}`)).toBe(200);
        answered++;
      }
    };
    await Promise.all([poller(a), poller(a), poller(b), poller(b)]);
    expect(taken.size).toBe(TOTAL);
    expect([...taken.values()].every((n) => n === 1)).toBe(true);
    expect(new Set(submitted)).toEqual(new Set(taken.keys()));
    const states = await Promise.all(submitted.slice(0, 100).map((id) => status(b!, token, id)));
    expect(new Set(states)).toEqual(new Set(['succeeded']));
  }, 240_000); // 2,000 jobs on a shared 2-core machine: allowed minutes, typically done in well under one

  it('a held execute on A is answered when a module polling B posts the result', async () => {
    const [a, b] = await instances(2);
    const token = await mint(a!);
    const execute = fetch(`${a!.url}${MUX}/compute-modules/jobs/execute`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ deployedAppRid: APP_RID, queryType: 'add', query: { a: 2, b: 3 } }),
    });
    let jobId: string | undefined;
    while (!jobId) jobId = await poll(b!); // the job was queued on A; B's poll wakes for it
    expect(await postResult(b!, jobId, '{"sum":5}')).toBe(200);
    const res = await execute;
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('{"sum":5}');
  });

  it('a poll held on B wakes within milliseconds for a job submitted on A', async () => {
    const [a, b] = await instances(2);
    const token = await mint(a!);
    const held = poll(b!);
    await new Promise((resolve) => setTimeout(resolve, 50)); // let the poll find the queue empty and wait
    const jobId = await submit(a!, token);
    expect(await held).toBe(jobId);
  });

  it('a reset on A empties and reseeds the shared state, and B sees it', async () => {
    const [a, b] = await instances(2);
    const token = await mint(a!, 'admin', ['api:admin-read']);
    await fetch(`${b!.url}/_emulate/platform/users/alice/deactivate`, { method: 'POST' });
    expect((await a!.server.store.users.byUsername('alice'))?.active).toBe(false);
    expect((await fetch(`${a!.url}/_emulate/platform/reset`, { method: 'POST' })).status).toBe(200);
    expect((await b!.server.store.users.byUsername('alice'))?.active).toBe(true);
    const me = await fetch(`${b!.url}/api/v2/admin/users/getCurrent`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(401); // the token went with the reset
  });
});
