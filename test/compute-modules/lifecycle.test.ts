// Each transition of the job lifecycle (docs/contracts.md §6), in process.
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { MUX, RUNTIME, TOKEN, harness, oauthError, type Harness } from './helpers.js';

/** A poll held on rt-2 and an execute waiting for its (handed-out) job, both sure to be waiting. */
async function holdPollAndExecute() {
  const { poll } = await h.heldPoll('rt-2');
  const execute = h.execute();
  await h.poll(); // hands out the execute's job: it is queued, so its request is waiting
  return { poll, execute };
}

let h: Harness;
afterEach(() => h?.app.close());

describe('job lifecycle', () => {
  it('a result posted before any poll completes the job, which is then never handed out', async () => {
    h = await harness({ pollTimeoutMs: 50 });
    const job = await h.submit();
    expect((await h.postResult(job.id, 'early')).statusCode).toBe(200);
    expect((await h.status(job.id)).type).toBe('succeeded');
    expect((await h.poll()).statusCode).toBe(204);
    expect((await h.resultV2(job.id)).body).toBe('early');
  });

  it('a result for a canceled job is accepted (200), discarded and logged', async () => {
    const logged: string[] = [];
    h = await harness({ logDestination: new Writable({ write: (chunk, _enc, done) => done(void logged.push(String(chunk))) }) });
    const job = await h.submit();
    await h.poll();
    await h.app.inject({ method: 'DELETE', url: `${MUX}/jobs`, headers: h.auth, payload: { id: job.id } });
    const res = await h.postResult(job.id, 'too late');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({});
    expect((await h.status(job.id)).type).toBe('canceled');
    expect((await h.inspect(job.id)).job.result).toBeNull();
    const lines = logged
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.filter((l) => l.msg === 'result for a job no longer in progress discarded')).toEqual([expect.objectContaining({ jobId: job.id })]);
    expect(logged.join('')).not.toContain(TOKEN); // the module's credential never reaches the log
  });

  it('a second result for an answered job is accepted and discarded; the first one stays', async () => {
    h = await harness();
    const job = await h.submit();
    await h.poll();
    await h.postResult(job.id, 'first');
    expect((await h.postResult(job.id, 'second')).statusCode).toBe(200);
    expect((await h.resultV2(job.id)).body).toBe('first');
  });

  it('a session reset puts a job in progress back in the queue; nothing is lost', async () => {
    h = await harness();
    const job = await h.submit();
    await h.poll();
    expect((await h.status(job.id)).type).toBe('inProgress');
    const session = (await h.openSession({ runtimeId: RUNTIME })).json();
    expect((await h.status(job.id)).type).toBe('queued');
    const again = await h.poll(session.moduleAuthToken);
    expect(again.json().computeModuleJobV1.jobId).toBe(job.id);
    expect((await h.inspect(job.id)).job.handOuts).toBe(2);
  });

  it('after three hand-outs without an answer the job fails', async () => {
    h = await harness();
    const pending = h.execute();
    let token = TOKEN;
    let jobId = '';
    for (let handOut = 1; handOut <= 3; handOut++) {
      const poll = await h.poll(token);
      jobId = poll.json().computeModuleJobV1.jobId;
      token = (await h.openSession({ runtimeId: RUNTIME })).json().moduleAuthToken;
      expect((await h.status(jobId)).type).toBe(handOut < 3 ? 'queued' : 'failed');
    }
    const status = await h.status(jobId);
    expect(status).toMatchObject({
      type: 'failed',
      failed: {
        exception: { errorType: { code: 'INTERNAL', name: 'ComputeModules:JobFailed' }, message: 'The job was handed out 3 times without an answer.' },
      },
    });
    expect(status.failed).toEqual(await h.status(jobId).then((s) => s.failed)); // a stable errorInstanceId
    oauthError(await pending, 409, 'job_failed');
    expect(oauthError(await h.resultV2(jobId), 409, 'job_failed').error_description).toContain('handed out 3 times');
    const byId = await h.app.inject({ method: 'GET', url: `${MUX}/jobs/${jobId}/result`, headers: h.auth });
    expect(oauthError(byId, 409, 'job_failed').error_description).toContain(jobId);
    expect((await h.inspect(jobId)).job.handOuts).toBe(3);
  });

  it('a poll of the previous session ends (204) when the session is reset', async () => {
    h = await harness({ pollTimeoutMs: 60_000 });
    const { poll: old } = await h.heldPoll();
    await h.openSession({ runtimeId: RUNTIME });
    expect((await old).statusCode).toBe(204);
  });

  it('a store reset releases waiting polls (204) and executes (404) at once', async () => {
    h = await harness({ pollTimeoutMs: 60_000, executeTimeoutMs: 60_000 });
    const { poll, execute } = await holdPollAndExecute();
    const reset = await h.app.inject({ method: 'POST', url: '/_emulate/platform/reset' });
    expect(reset.statusCode).toBe(200);
    expect((await poll).statusCode).toBe(204);
    expect(oauthError(await execute, 404, 'not_found').error_description).toContain('reset');
  });

  it('closing the server releases waiting polls (204) and executes (503) at once', async () => {
    h = await harness({ pollTimeoutMs: 60_000, executeTimeoutMs: 60_000 });
    const { poll, execute } = await holdPollAndExecute();
    await h.app.close();
    expect((await poll).statusCode).toBe(204);
    oauthError(await execute, 503, 'temporarily_unavailable');
  });
});

describe('retention', () => {
  it('keeps at most retained_jobs finished jobs, dropping the oldest finished first, never queued or running ones', async () => {
    h = await harness({ retainedJobs: 2 });
    const jobs: Array<{ id: string }> = [];
    for (let i = 0; i < 6; i++) jobs.push(await h.submit({ deployedAppRid: 'ri.foundry.main.deployed-app.adder', queryType: 'q', query: { i } }));
    // Finish jobs 0..3 in the order 1, 0, 3, 2; job 4 is running and job 5 queued.
    for (let i = 0; i < 5; i++) await h.poll();
    for (const i of [1, 0, 3, 2]) await h.postResult(jobs[i]!.id, `r${i}`);
    const statusCode = async (i: number) => (await h.app.inject({ method: 'GET', url: `${MUX}/jobs/${jobs[i]!.id}/status`, headers: h.auth })).statusCode;
    expect(await Promise.all([0, 1, 2, 3, 4, 5].map(statusCode))).toEqual([404, 404, 200, 200, 200, 200]);
    expect((await h.resultV2(jobs[3]!.id)).body).toBe('r3');
    expect(await h.store.computeModuleJobs.countFinished()).toBe(2);
    // The running job still completes and pushes the oldest retained one (3) out.
    await h.postResult(jobs[4]!.id, 'r4');
    expect(await Promise.all([2, 3, 4, 5].map(statusCode))).toEqual([200, 404, 200, 200]);
  });
});
