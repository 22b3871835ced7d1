// Job routes in process: every success and error shape (docs/contracts.md §6).
import { afterEach, describe, expect, it } from 'vitest';
import { ADDER, MUX, harness, oauthError, type Harness } from './helpers.js';

let h: Harness;
afterEach(() => h?.app.close());

const body = { deployedAppRid: ADDER, deployedAppBranch: 'master', queryType: 'add', query: { a: 2, b: 3 } };

describe('authentication', () => {
  it('answers 401 {message} without a valid bearer token on every job route', async () => {
    h = await harness();
    const routes: Array<['GET' | 'POST' | 'PUT' | 'DELETE', string]> = [
      ['POST', '/compute-modules/jobs/execute'],
      ['POST', '/deployed-apps/jobs/execute'],
      ['POST', '/deployed-apps/jobs'],
      ['GET', '/jobs/x/status'],
      ['PUT', '/jobs/status/v2'],
      ['PUT', '/jobs/result/v2'],
      ['GET', '/jobs/x/result'],
      ['DELETE', '/jobs'],
      ['GET', `/schemas?rid=${ADDER}`],
    ];
    for (const [method, path] of routes) {
      const res = await h.app.inject({
        method,
        url: `${MUX}${path}`,
        headers: { authorization: 'Bearer nope' },
        payload: method === 'GET' ? undefined : { id: 'x' },
      });
      expect(res.statusCode, `${method} ${path}`).toBe(401);
      expect(res.json()).toEqual({ message: 'Requires authentication' });
    }
  });
});

describe('submit and follow a job', () => {
  it('submit answers a Job; status goes queued -> inProgress -> succeeded; result v2 gives the bytes', async () => {
    h = await harness();
    const res = await h.app.inject({ method: 'POST', url: `${MUX}/deployed-apps/jobs`, headers: h.auth, payload: body });
    expect(res.statusCode).toBe(200);
    const job = res.json();
    expect(job).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      moduleId: null,
      nodeId: null,
      status: { type: 'queued', queued: { queueInfo: 'NORMAL_OPERATION' } },
    });

    oauthError(await h.resultV2(job.id), 409, 'job_not_ready');
    await h.poll();
    expect(await h.status(job.id)).toEqual({ type: 'inProgress', inProgress: { completedTasks: 0 } });
    oauthError(await h.resultV2(job.id), 409, 'job_not_ready');

    await h.postResult(job.id, '5');
    expect(await h.status(job.id)).toEqual({ type: 'succeeded', succeeded: { intermediateJobInfoList: [] } });
    const v2status = await h.app.inject({ method: 'PUT', url: `${MUX}/jobs/status/v2`, headers: h.auth, payload: job });
    expect(v2status.json()).toEqual({ type: 'succeeded', succeeded: { intermediateJobInfoList: [] } });

    const result = await h.resultV2(job.id);
    expect(result.statusCode).toBe(200);
    expect(result.headers['content-type']).toBe('application/octet-stream');
    expect(result.body).toBe('5');
    const byId = await h.app.inject({ method: 'GET', url: `${MUX}/jobs/${job.id}/result`, headers: h.auth });
    expect(byId.body).toBe('5');
  });

  it('defaults the branch (absent or null) to master and the query to {}', async () => {
    h = await harness();
    const job = await h.submit({ deployedAppRid: ADDER, queryType: 'ping' });
    const poll = await h.poll();
    expect(poll.json().computeModuleJobV1).toEqual({ jobId: job.id, queryType: 'ping', query: {} });
    const nullBranch = await h.submit({ deployedAppRid: ADDER, deployedAppBranch: null, queryType: 'ping' }); // as conjure clients send it
    expect((await h.poll()).json().computeModuleJobV1.jobId).toBe(nullBranch.id);
  });

  it('answers 404 not_found for unknown apps, branches and jobs; 409 for an inactive app; 400 for a malformed body', async () => {
    h = await harness();
    const submit = (payload: unknown) => h.app.inject({ method: 'POST', url: `${MUX}/deployed-apps/jobs`, headers: h.auth, payload: payload as object });
    oauthError(await submit({ ...body, deployedAppRid: 'ri.nope' }), 404, 'not_found');
    oauthError(await submit({ ...body, deployedAppBranch: 'nope' }), 404, 'not_found');
    oauthError(await submit({ ...body, deployedAppRid: 'ri.foundry.main.deployed-app.off' }), 409, 'deployed_app_inactive');
    oauthError(await h.execute({ ...body, deployedAppRid: 'ri.foundry.main.deployed-app.off' }), 409, 'deployed_app_inactive');
    oauthError(await submit({ deployedAppRid: ADDER }), 400, 'invalid_request');
    oauthError(await submit({ ...body, queryType: 7 }), 400, 'invalid_request');
    oauthError(await h.execute({ queryType: 'add' }), 400, 'invalid_request');

    oauthError(await h.app.inject({ method: 'GET', url: `${MUX}/jobs/nope/status`, headers: h.auth }), 404, 'not_found');
    oauthError(await h.resultV2('nope'), 404, 'not_found');
    oauthError(await h.app.inject({ method: 'PUT', url: `${MUX}/jobs/result/v2`, headers: h.auth, payload: {} }), 400, 'invalid_request');
    oauthError(await h.app.inject({ method: 'DELETE', url: `${MUX}/jobs`, headers: h.auth, payload: { id: 'nope' } }), 404, 'not_found');
    oauthError(await h.app.inject({ method: 'GET', url: `${MUX}/schemas?rid=ri.nope`, headers: h.auth }), 404, 'not_found');
  });
});

describe('synchronous execute', () => {
  it('holds until the module answers, then returns its bytes as octet-stream', async () => {
    h = await harness();
    for (const path of ['/compute-modules/jobs/execute', '/deployed-apps/jobs/execute']) {
      const pending = h.app.inject({ method: 'POST', url: `${MUX}${path}`, headers: h.auth, payload: body });
      const poll = await h.poll();
      const { jobId } = poll.json().computeModuleJobV1;
      await h.postResult(jobId, Buffer.from('{"sum":5}\n'));
      const res = await pending;
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/octet-stream');
      expect(res.body).toBe('{"sum":5}\n');
    }
  });

  it('answers 504 job_timeout naming the job, which stays and can be answered and fetched later', async () => {
    h = await harness({ executeTimeoutMs: 100 });
    const res = await h.execute();
    const error = oauthError(res, 504, 'job_timeout');
    const jobId = /Job ([0-9a-f-]{36})/.exec(error.error_description)![1]!;
    expect((await h.status(jobId)).type).toBe('queued');
    expect((await h.poll()).json().computeModuleJobV1.jobId).toBe(jobId);
    await h.postResult(jobId, 'late');
    expect((await h.resultV2(jobId)).body).toBe('late');
  });

  it('answers 409 job_canceled when the job is canceled while it waits', async () => {
    h = await harness();
    const pending = h.execute();
    const { jobId } = (await h.poll()).json().computeModuleJobV1;
    const cancel = await h.app.inject({ method: 'DELETE', url: `${MUX}/jobs`, headers: h.auth, payload: { id: jobId } });
    expect(cancel.statusCode).toBe(204);
    oauthError(await pending, 409, 'job_canceled');
  });
});

describe('cancel', () => {
  it('cancels a queued job: status canceled, never handed out, result 409 job_canceled', async () => {
    h = await harness({ pollTimeoutMs: 50 });
    const job = await h.submit();
    const res = await h.app.inject({ method: 'DELETE', url: `${MUX}/jobs`, headers: h.auth, payload: job });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    const status = await h.status(job.id);
    expect(status).toMatchObject({
      type: 'canceled',
      canceled: { exception: { errorType: { code: 'CONFLICT', name: 'ComputeModules:JobCanceled' }, message: 'The job was canceled.', args: [] } },
    });
    expect((await h.poll()).statusCode).toBe(204);
    expect(oauthError(await h.resultV2(job.id), 409, 'job_canceled').error_description).toContain(job.id);
    const byId = await h.app.inject({ method: 'GET', url: `${MUX}/jobs/${job.id}/result`, headers: h.auth });
    expect(oauthError(byId, 409, 'job_canceled').error_description).toContain(job.id);
  });

  it('cancels by id too, and leaves a finished job as it is', async () => {
    h = await harness();
    const job = await h.submit();
    await h.poll();
    await h.postResult(job.id, 'done');
    const res = await h.app.inject({ method: 'DELETE', url: `${MUX}/jobs/${job.id}`, headers: h.auth });
    expect(res.statusCode).toBe(204);
    expect((await h.status(job.id)).type).toBe('succeeded');
    expect((await h.resultV2(job.id)).body).toBe('done');
  });
});
