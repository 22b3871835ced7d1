// Issue 10, compute-module side: HEAD hands out nothing (item 4), ids and module tokens are checked before
// anything is created (items 6, 12), nothing stored can poison an answer (item 1), errors quote short
// excerpts only (item 13), and queues and retained results are bounded (item 2, docs/contracts.md §8).
import { afterEach, describe, expect, it } from 'vitest';
import { ADDER, MUX, RUNTIME, RUNTIMES, TOKEN, harness, oauthError, type Harness } from './helpers.js';
import { TEST_STORE } from '../helpers/store.js';

// These put a value JSON cannot serialize (nested 100,000 deep) straight into the store, as if an earlier
// version had accepted it. Only the memory store can hold one: PostgreSQL keeps records as JSON text, so such a
// value cannot be stored at all (the routes refuse it with 400 before, as the last test of the group checks).
const memoryStoreOnly = !!TEST_STORE;

let h: Harness;
afterEach(() => h?.app.close());

/** An object nested `levels` deep: JSON.stringify overflows its stack long before 100,000. */
function deep(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

describe('HEAD on the poll route (item 4)', () => {
  it('answers 404/405 and hands out nothing', async () => {
    h = await harness({ pollTimeoutMs: 50 });
    const job = await h.submit();
    const head = await h.app.inject({ method: 'HEAD', url: `${RUNTIMES}/${RUNTIME}/job`, headers: { 'module-auth-token': TOKEN } });
    expect([404, 405]).toContain(head.statusCode);
    expect(await h.status(job.id)).toMatchObject({ type: 'queued' });
    expect((await h.inspect(job.id)).job.handOuts).toBe(0);
    expect((await h.poll()).json().computeModuleJobV1.jobId).toBe(job.id);
  });
});

describe('POST runtimes checks every id and the token before anything is created (items 6, 12)', () => {
  const refused: Array<[string, Record<string, unknown>]> = [
    ['a lone surrogate in the runtime id', { runtimeId: 'rt-\ud800', deployedAppRid: 'ri.app.surrogate' }],
    ['a slash in the runtime id', { runtimeId: 'rt/1', deployedAppRid: 'ri.app.surrogate' }],
    ['a runtime id of 129 characters', { runtimeId: 'r'.repeat(129), deployedAppRid: 'ri.app.surrogate' }],
    ['a lone surrogate in the app rid', { runtimeId: 'rt-fresh', deployedAppRid: 'ri.app.\udc00' }],
    ['a newline in the branch', { runtimeId: 'rt-fresh', deployedAppRid: 'ri.app.surrogate', branch: 'a\nb' }],
    ['a lone surrogate in the display name', { runtimeId: 'rt-fresh', deployedAppRid: 'ri.app.surrogate', displayName: 'x\ud800' }],
    ['a NUL in the token', { runtimeId: 'rt-fresh', deployedAppRid: 'ri.app.surrogate', moduleAuthToken: 'token-with-nul-\u0000-inside' }],
    ['a newline in the token', { runtimeId: 'rt-fresh', deployedAppRid: 'ri.app.surrogate', moduleAuthToken: 'token-with-newline\n-inside' }],
    ['a token of 20,000 characters', { runtimeId: 'rt-fresh', deployedAppRid: 'ri.app.surrogate', moduleAuthToken: 't'.repeat(20_000) }],
    ['a token of 15 characters', { runtimeId: 'rt-fresh', deployedAppRid: 'ri.app.surrogate', moduleAuthToken: 't'.repeat(15) }],
    ['a space in the token', { runtimeId: 'rt-fresh', deployedAppRid: 'ri.app.surrogate', moduleAuthToken: 'token with spaces inside' }],
  ];
  for (const [what, body] of refused) {
    it(`refuses ${what} with 400, leaving no runtime or app binding behind`, async () => {
      h = await harness();
      const runtimes = await h.store.computeModules.countRuntimes();
      const apps = await h.store.computeModules.countDeployedApps();
      const res = await h.openSession(body);
      const error = oauthError(res, 400, 'invalid_request');
      expect(error.error_description.length).toBeLessThan(1000);
      expect(await h.store.computeModules.countRuntimes()).toBe(runtimes);
      expect(await h.store.computeModules.countDeployedApps()).toBe(apps);
      const submit = await h.app.inject({
        method: 'POST',
        url: `${MUX}/deployed-apps/jobs`,
        headers: h.auth,
        payload: { deployedAppRid: 'ri.app.surrogate', queryType: 'q' },
      });
      expect(submit.statusCode).toBe(404);
    });
  }

  it('accepts the edges of the shapes: 128-character ids of every allowed kind, tokens of 16 and 512 visible characters', async () => {
    h = await harness({ pollTimeoutMs: 50 });
    const id = `Az09._:-${'x'.repeat(120)}`;
    for (const token of ['!'.repeat(16), `~${'a'.repeat(511)}`]) {
      const res = await h.openSession({ runtimeId: id, moduleAuthToken: token });
      expect(res.statusCode).toBe(200);
      expect((await h.poll(token, id)).statusCode).toBe(204);
    }
  });
});

describe('nothing stored poisons an answer (item 1)', () => {
  it.skipIf(memoryStoreOnly)('a job whose query cannot be serialized fails with a reason; the poll hands out the next job instead of a 500', async () => {
    h = await harness({ pollTimeoutMs: 50 });
    // Straight into the store, as if an earlier version had accepted it; queued before a good job.
    await h.store.computeModuleJobs.insert({
      jobId: 'deep-job',
      runtimeId: RUNTIME,
      deployedAppRid: ADDER,
      branch: 'master',
      queryType: 'q',
      query: deep(100_000),
      state: 'queued',
      handOuts: 0,
      submittedAt: h.clock.now(),
    });
    const good = await h.submit();
    const next = await h.poll();
    expect(next.statusCode).toBe(200);
    expect(next.json().computeModuleJobV1.jobId).toBe(good.id);
    const status = await h.status('deep-job');
    expect(status).toMatchObject({ type: 'failed' });
    expect(JSON.stringify(status)).toContain('serialized');
    expect((await h.poll()).statusCode).toBe(204);
  });

  it.skipIf(memoryStoreOnly)('inspection of a job whose query cannot be serialized answers 200, not 500', async () => {
    h = await harness({ pollTimeoutMs: 50 });
    await h.store.computeModuleJobs.insert({
      jobId: 'deep-job',
      runtimeId: RUNTIME,
      deployedAppRid: ADDER,
      branch: 'master',
      queryType: 'q',
      query: deep(100_000),
      state: 'queued',
      handOuts: 0,
      submittedAt: h.clock.now(),
    });
    const res = await h.app.inject({ method: 'GET', url: `${RUNTIMES}/${RUNTIME}/jobs/deep-job` });
    expect(res.statusCode).toBe(200);
    expect(res.json().job.id).toBe('deep-job');
  });

  it.skipIf(memoryStoreOnly)('a function schema that cannot be serialized is left out of the schemas answer, which stays 200', async () => {
    h = await harness();
    await h.store.computeModules.setSchemas(RUNTIME, [{ functionName: 'ok' }, deep(100_000)]);
    const res = await h.app.inject({ method: 'GET', url: `${MUX}/schemas?rid=${ADDER}`, headers: h.auth });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([{ issues: [], functionName: 'ok' }]);
  });

  it('refuses to store a query or schemas that could not be served back (400)', async () => {
    h = await harness();
    // Built as text: the parser accepts it (the edge may refuse it earlier, also with a 400).
    const nested = `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`;
    const submit = await h.app.inject({
      method: 'POST',
      url: `${MUX}/deployed-apps/jobs`,
      headers: { ...h.auth, 'content-type': 'application/json' },
      payload: `{"deployedAppRid":"${ADDER}","queryType":"q","query":${nested}}`,
    });
    oauthError(submit, 400, 'invalid_request');
    const schemas = await h.app.inject({
      method: 'POST',
      url: `${RUNTIMES}/${RUNTIME}/schemas`,
      headers: { 'module-auth-token': TOKEN, 'content-type': 'application/json' },
      payload: `[${nested}]`,
    });
    oauthError(schemas, 400, 'invalid_request');
  });
});

describe('errors quote short excerpts only (item 13)', () => {
  it('the deployed-app 404 quotes at most 64 characters of a huge rid', async () => {
    h = await harness();
    const rid = `ri.${'x'.repeat(600_000)}`;
    const submit = await h.app.inject({ method: 'POST', url: `${MUX}/deployed-apps/jobs`, headers: h.auth, payload: { deployedAppRid: rid, queryType: 'q' } });
    const error = oauthError(submit, 404, 'not_found');
    expect(error.error_description.length).toBeLessThan(200);
    expect(error.error_description).toContain('…');
    const schemas = await h.app.inject({ method: 'GET', url: `${MUX}/schemas?rid=${'y'.repeat(7000)}`, headers: h.auth });
    expect(oauthError(schemas, 404, 'not_found').error_description.length).toBeLessThan(200);
    const status = await h.app.inject({ method: 'PUT', url: `${MUX}/jobs/status/v2`, headers: h.auth, payload: { id: 'z'.repeat(100_000) } });
    expect(oauthError(status, 404, 'not_found').error_description.length).toBeLessThan(200);
  });
});

describe('bounded queues and retained results (item 2)', () => {
  it('past max_queued_jobs a runtime refuses new jobs with 429 queue_full; taking one makes room', async () => {
    h = await harness({ maxQueuedJobs: 2, pollTimeoutMs: 50 });
    await h.submit();
    await h.submit();
    const third = await h.app.inject({ method: 'POST', url: `${MUX}/deployed-apps/jobs`, headers: h.auth, payload: { deployedAppRid: ADDER, queryType: 'q' } });
    expect(oauthError(third, 429, 'queue_full').error_description).toContain('max_queued_jobs');
    oauthError(await h.execute(), 429, 'queue_full');
    // Another runtime's queue is its own.
    expect(
      (
        await h.app.inject({
          method: 'POST',
          url: `${MUX}/deployed-apps/jobs`,
          headers: h.auth,
          payload: { deployedAppRid: ADDER, deployedAppBranch: 'feature', queryType: 'q' },
        })
      ).statusCode,
    ).toBe(200);
    await h.poll();
    expect(
      (await h.app.inject({ method: 'POST', url: `${MUX}/deployed-apps/jobs`, headers: h.auth, payload: { deployedAppRid: ADDER, queryType: 'q' } }))
        .statusCode,
    ).toBe(200);
  });

  it('past max_retained_result_bytes the oldest finished jobs are forgotten first', async () => {
    h = await harness({ maxRetainedResultBytes: 25 });
    const jobs: Array<{ id: string }> = [];
    for (let i = 0; i < 4; i++) jobs.push(await h.submit());
    for (let i = 0; i < 4; i++) await h.poll();
    for (let i = 0; i < 4; i++) await h.postResult(jobs[i]!.id, String(i).repeat(10));
    const statusCode = async (i: number) => (await h.app.inject({ method: 'GET', url: `${MUX}/jobs/${jobs[i]!.id}/status`, headers: h.auth })).statusCode;
    expect(await Promise.all([0, 1, 2, 3].map(statusCode))).toEqual([404, 404, 200, 200]);
    expect((await h.resultV2(jobs[3]!.id)).body).toBe('3333333333');
  });
});
