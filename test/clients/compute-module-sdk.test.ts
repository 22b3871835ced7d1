// End to end: a real module built with @palantir/compute-module 0.2.7, started through `run-module`,
// answering jobs that an app submits through the job routes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_RID, MUX, RUNTIME_ID, startLiveModule, type LiveModule } from '../compute-modules/live.js';

let live: LiveModule;
beforeAll(async () => {
  live = await startLiveModule();
});
afterAll(async () => {
  const result = await live.stop();
  expect(result.code).toBe(128 + 15); // run-module forwarded SIGTERM and reports the module's end by it
  expect(result.stderr).not.toMatch(/Error running module|Error posting schemas/);
});

const call = (method: string, path: string, body?: unknown) =>
  fetch(`${live.emulator.url}${MUX}${path}`, {
    method,
    headers: { authorization: `Bearer ${live.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const execute = (queryType: string, query: unknown) =>
  call('POST', '/compute-modules/jobs/execute', { deployedAppRid: APP_RID, deployedAppBranch: 'master', queryType, query });

describe('the runtime SDK against the emulator', () => {
  it('posts its function schemas, converted from TypeBox', async () => {
    const res = await call('GET', `/schemas?rid=${APP_RID}&branch=master`);
    const schemas = (await res.json()) as Array<{ functionName: string; inputs: unknown[]; output: unknown }>;
    expect(schemas.map((s) => s.functionName).sort()).toEqual(['add', 'explode', 'greet']);
    const add = schemas.find((s) => s.functionName === 'add')!;
    expect(add.inputs).toEqual([
      { name: 'a', required: true, dataType: { type: 'integer', integer: {} }, constraints: [] },
      { name: 'b', required: true, dataType: { type: 'integer', integer: {} }, constraints: [] },
    ]);
    expect(add.output).toEqual({ type: 'single', single: { dataType: { type: 'integer', integer: {} } } });
  });

  it('execute of add {a:2,b:3} returns the bytes the module posted', async () => {
    const res = await execute('add', { a: 2, b: 3 });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(await res.text()).toBe('5'); // the SDK posts JSON.stringify(result)
    const greet = await execute('greet', { name: 'Ada' });
    expect(Buffer.from(await greet.arrayBuffer()).equals(Buffer.from(JSON.stringify('héllo Ada ✓'), 'utf8'))).toBe(true);
  });

  it('an async submit reaches succeeded and its result v2 matches', async () => {
    const submitted = await call('POST', '/deployed-apps/jobs', {
      deployedAppRid: APP_RID,
      deployedAppBranch: 'master',
      queryType: 'add',
      query: { a: 40, b: 2 },
    });
    const job = (await submitted.json()) as { id: string; status: { type: string } };
    const answered = live.answered((method, url) => method === 'POST' && url.endsWith(`/results/${job.id}`));
    expect(['queued', 'inProgress', 'succeeded']).toContain(job.status.type);
    await answered;
    expect(await (await call('GET', `/jobs/${job.id}/status`)).json()).toEqual({ type: 'succeeded', succeeded: { intermediateJobInfoList: [] } });
    const result = await call('PUT', '/jobs/result/v2', job);
    expect(result.headers.get('content-type')).toBe('application/octet-stream');
    expect(await result.text()).toBe('42');
  });

  it("a throwing function's error body comes back as the result", async () => {
    const res = await execute('explode', { message: 'kaboom' });
    expect(res.status).toBe(200);
    expect(JSON.parse(await res.text())).toEqual({ error: 'Error', reason: 'kaboom' });
  });

  it('50 concurrent executes all return the right answers', async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const res = await execute('add', { a: i, b: 1000 });
        return `${res.status} ${await res.text()}`;
      }),
    );
    expect(answers).toEqual(Array.from({ length: 50 }, (_, i) => `200 ${i + 1000}`));
  });

  it("the module's poll loop does not spin while idle", async () => {
    const polls = () => live.seen.filter((r) => r === `GET /_emulate/platform/compute-modules/runtimes/${RUNTIME_ID}/job`).length;
    const before = polls();
    await new Promise((resolve) => setTimeout(resolve, 1000)); // the measurement: one idle second
    const during = polls() - before;
    // A 500 ms hold means about two polls a second; a spinning loop would make hundreds.
    expect(during).toBeGreaterThanOrEqual(1);
    expect(during).toBeLessThanOrEqual(5);
  });
});
