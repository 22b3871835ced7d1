// Runtime routes in process: every success and error shape (docs/contracts.md §6).
import { afterEach, describe, expect, it } from 'vitest';
import { ADDER, MUX, RUNTIME, RUNTIMES, TOKEN, harness, oauthError, type Harness } from './helpers.js';

let h: Harness;
afterEach(() => h?.app.close());

describe('POST runtimes: create or reset a session', () => {
  it('creates a runtime and answers absolute URIs under the public base address', async () => {
    h = await harness({ pollTimeoutMs: 50 });
    const res = await h.openSession({ runtimeId: 'rt-new' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['getJobUri', 'moduleAuthToken', 'postResultUri', 'postSchemaUri', 'runtimeId']);
    expect(body.runtimeId).toBe('rt-new');
    expect(body.moduleAuthToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.getJobUri).toBe(`http://localhost:4000${RUNTIMES}/rt-new/job`);
    expect(body.postResultUri).toBe(`http://localhost:4000${RUNTIMES}/rt-new/results`);
    expect(body.postSchemaUri).toBe(`http://localhost:4000${RUNTIMES}/rt-new/schemas`);
    const poll = await h.poll(body.moduleAuthToken, 'rt-new');
    expect(poll.statusCode).toBe(204);
  });

  it('uses base_url when configured', async () => {
    h = await harness({ baseUrl: 'https://emulator.example.test/' });
    const body = (await h.openSession({ runtimeId: RUNTIME })).json();
    expect(body.getJobUri).toBe(`https://emulator.example.test${RUNTIMES}/${RUNTIME}/job`);
  });

  it('rotates the token on reset unless one is given, and clears schemas', async () => {
    h = await harness({ pollTimeoutMs: 50 });
    const schemas = [{ functionName: 'add', inputs: [], output: { type: 'single' } }];
    const posted = await h.app.inject({ method: 'POST', url: `${RUNTIMES}/${RUNTIME}/schemas`, headers: { 'module-auth-token': TOKEN }, payload: schemas });
    expect(posted.statusCode).toBe(200);
    expect(posted.json()).toEqual({});

    const rotated = (await h.openSession({ runtimeId: RUNTIME })).json();
    expect(rotated.moduleAuthToken).not.toBe(TOKEN);
    oauthError(await h.poll(TOKEN), 401, 'invalid_module_auth_token');
    expect((await h.poll(rotated.moduleAuthToken)).statusCode).toBe(204);
    const listed = await h.app.inject({ method: 'GET', url: `${MUX}/schemas?rid=${ADDER}`, headers: h.auth });
    expect(listed.json()).toEqual([]);

    const chosen = (await h.openSession({ runtimeId: RUNTIME, moduleAuthToken: 'my-own-token-0123' })).json();
    expect(chosen.moduleAuthToken).toBe('my-own-token-0123');
    expect((await h.poll('my-own-token-0123')).statusCode).toBe(204);
  });

  it('binds a deployed app to the runtime when one is named', async () => {
    h = await harness();
    const session = (await h.openSession({ runtimeId: 'rt-local', deployedAppRid: 'ri.app.new', branch: 'dev' })).json();
    const job = await h.submit({ deployedAppRid: 'ri.app.new', deployedAppBranch: 'dev', queryType: 'q' });
    const poll = await h.poll(session.moduleAuthToken, 'rt-local');
    expect(poll.json().computeModuleJobV1.jobId).toBe(job.id);
  });

  it('rejects a malformed body with invalid_request', async () => {
    h = await harness();
    oauthError(await h.openSession({}), 400, 'invalid_request');
    oauthError(await h.openSession({ runtimeId: 'x', surprise: true }), 400, 'invalid_request');
    const notJson = await h.app.inject({ method: 'POST', url: RUNTIMES, headers: { 'content-type': 'application/json' }, payload: '{' });
    oauthError(notJson, 400, 'invalid_request');
  });
});

describe('GET job: the long-poll', () => {
  it('answers 404 not_found for an unknown runtime before looking at the token', async () => {
    h = await harness();
    const res = await h.app.inject({ method: 'GET', url: `${RUNTIMES}/nope/job` });
    expect(oauthError(res, 404, 'not_found').error_description).toContain('nope');
  });

  it('answers 401 invalid_module_auth_token for a missing or wrong token', async () => {
    h = await harness();
    oauthError(await h.app.inject({ method: 'GET', url: `${RUNTIMES}/${RUNTIME}/job` }), 401, 'invalid_module_auth_token');
    oauthError(await h.poll('wrong'), 401, 'invalid_module_auth_token');
    oauthError(await h.poll('module-token-2'), 401, 'invalid_module_auth_token'); // another runtime's token
  });

  it('answers 204 with no body when the hold ends without a job', async () => {
    h = await harness({ pollTimeoutMs: 50 });
    const res = await h.poll();
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
  });

  it('hands out a queued job at once, in submission order', async () => {
    h = await harness();
    const first = await h.submit();
    const second = await h.submit({ deployedAppRid: ADDER, queryType: 'echo', query: { text: 'hi' } });
    const a = await h.poll();
    expect(a.statusCode).toBe(200);
    expect(a.json()).toEqual({ type: 'computeModuleJobV1', computeModuleJobV1: { jobId: first.id, queryType: 'add', query: { a: 2, b: 3 } } });
    const b = await h.poll();
    expect(b.json().computeModuleJobV1).toEqual({ jobId: second.id, queryType: 'echo', query: { text: 'hi' } });
  });

  it('wakes a waiting poll when a job is submitted (long before the hold ends)', async () => {
    h = await harness({ pollTimeoutMs: 60_000 });
    const { poll: waiting } = await h.heldPoll();
    const job = await h.submit();
    const res = await waiting; // a 60 s hold: only the wake-up can answer this within the test's timeout
    expect(res.statusCode).toBe(200);
    expect(res.json().computeModuleJobV1.jobId).toBe(job.id);
  });

  it('only the runtime of the deployed app and branch gets the job', async () => {
    h = await harness({ pollTimeoutMs: 50 });
    const job = await h.submit({ deployedAppRid: ADDER, deployedAppBranch: 'feature', queryType: 'add' });
    expect((await h.poll()).statusCode).toBe(204);
    const other = await h.poll('module-token-2', 'rt-2');
    expect(other.json().computeModuleJobV1.jobId).toBe(job.id);
  });
});

describe('POST schemas', () => {
  it('stores the array the module posts; the multiplexer lists it', async () => {
    h = await harness();
    const schema = {
      functionName: 'add',
      inputs: [{ name: 'a', required: true, dataType: { type: 'integer', integer: {} }, constraints: [] }],
      output: { type: 'single', single: { dataType: { type: 'integer', integer: {} } } },
    };
    const res = await h.app.inject({ method: 'POST', url: `${RUNTIMES}/${RUNTIME}/schemas`, headers: { 'module-auth-token': TOKEN }, payload: [schema] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({});
    const listed = await h.app.inject({ method: 'GET', url: `${MUX}/schemas?rid=${ADDER}&branch=master`, headers: h.auth });
    expect(listed.json()).toEqual([{ issues: [], ...schema }]);
  });

  it('rejects a body that is not an array of objects, an unknown runtime and a wrong token', async () => {
    h = await harness();
    const post = (runtimeId: string, token: string, payload: unknown) =>
      h.app.inject({ method: 'POST', url: `${RUNTIMES}/${runtimeId}/schemas`, headers: { 'module-auth-token': token }, payload: payload as object });
    oauthError(await post(RUNTIME, TOKEN, { not: 'an array' }), 400, 'invalid_request');
    oauthError(await post(RUNTIME, TOKEN, [{ functionName: 'ok' }, 'not a schema', 5, null]), 400, 'invalid_request');
    oauthError(await post('nope', TOKEN, []), 404, 'not_found');
    oauthError(await post(RUNTIME, 'wrong', []), 401, 'invalid_module_auth_token');
  });
});

describe('POST results', () => {
  it('stores the bytes exactly, whatever the content type', async () => {
    h = await harness();
    const cases: Array<[string | Buffer, string | undefined]> = [
      ['{ "spaced" :  1 }', 'application/json'],
      [Buffer.from([0, 255, 1, 254, 10]), 'application/octet-stream'],
      ['plain words', 'text/plain; charset=utf-8'],
      ['', undefined],
    ];
    for (const [payload, contentType] of cases) {
      const job = await h.submit();
      expect((await h.poll()).statusCode).toBe(200);
      const res = await h.postResult(job.id, payload, contentType ? { 'content-type': contentType } : {});
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({});
      const result = await h.resultV2(job.id);
      expect(result.statusCode).toBe(200);
      expect(result.headers['content-type']).toBe('application/octet-stream');
      expect(result.rawPayload.equals(Buffer.from(payload))).toBe(true);
    }
  });

  it('answers 404 for an unknown runtime, an unknown job or a job of another runtime, then 401 for the token', async () => {
    h = await harness();
    const job = await h.submit();
    oauthError(await h.app.inject({ method: 'POST', url: `${RUNTIMES}/nope/results/${job.id}`, payload: 'x' }), 404, 'not_found');
    oauthError(await h.postResult('no-such-job', 'x'), 404, 'not_found');
    oauthError(await h.postResult(job.id, 'x', {}, 'rt-2'), 404, 'not_found');
    oauthError(await h.app.inject({ method: 'POST', url: `${RUNTIMES}/${RUNTIME}/results/${job.id}`, payload: 'x' }), 401, 'invalid_module_auth_token');
    expect((await h.status(job.id)).type).toBe('queued');
  });

  it('accepts results far above the 1 MiB JSON limit by default (32 MiB)', async () => {
    h = await harness();
    const job = await h.submit();
    await h.poll();
    const big = Buffer.alloc(3 * 1024 * 1024, 0x61);
    expect((await h.postResult(job.id, big)).statusCode).toBe(200);
    expect((await h.resultV2(job.id)).rawPayload.equals(big)).toBe(true);
    // ... while the JSON routes beside it keep the 1 MiB limit.
    const schemas = JSON.stringify([{ functionName: 'x'.repeat(2 * 1024 * 1024) }]);
    const res = await h.app.inject({
      method: 'POST',
      url: `${RUNTIMES}/${RUNTIME}/schemas`,
      headers: { 'module-auth-token': TOKEN, 'content-type': 'application/json' },
      payload: schemas,
    });
    oauthError(res, 413, 'invalid_request');
  });

  it('answers 413 invalid_request above max_result_bytes and keeps the job running', async () => {
    h = await harness({ maxResultBytes: 1024 });
    const job = await h.submit();
    await h.poll();
    const res = await h.postResult(job.id, Buffer.alloc(1025, 7));
    oauthError(res, 413, 'invalid_request');
    expect((await h.status(job.id)).type).toBe('inProgress');
    expect((await h.postResult(job.id, Buffer.alloc(1024, 7))).statusCode).toBe(200);
  });
});

describe('GET jobs/{jobId}: inspection', () => {
  it('shows runtime, job and schemas, never the module auth token', async () => {
    h = await harness();
    const job = await h.submit();
    await h.poll();
    await h.postResult(job.id, '5');
    const res = await h.app.inject({ method: 'GET', url: `${RUNTIMES}/${RUNTIME}/jobs/${job.id}` });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['job', 'runtime', 'schemas']);
    expect(body.runtime).toMatchObject({ runtimeId: RUNTIME, waitingPolls: 0 });
    expect(body.job).toMatchObject({
      id: job.id,
      state: 'succeeded',
      status: { type: 'succeeded' },
      queryType: 'add',
      query: { a: 2, b: 3 },
      handOuts: 1,
      result: { bytes: 1, contentType: 'application/octet-stream' },
    });
    expect(res.body).not.toContain(TOKEN);
  });

  it('answers 404 for an unknown runtime or job', async () => {
    h = await harness();
    const job = await h.submit();
    oauthError(await h.app.inject({ method: 'GET', url: `${RUNTIMES}/nope/jobs/${job.id}` }), 404, 'not_found');
    oauthError(await h.app.inject({ method: 'GET', url: `${RUNTIMES}/${RUNTIME}/jobs/nope` }), 404, 'not_found');
    oauthError(await h.app.inject({ method: 'GET', url: `${RUNTIMES}/rt-2/jobs/${job.id}` }), 404, 'not_found');
  });
});
