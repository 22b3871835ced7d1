// A connected module's runtime session survives a reset (issue 25): the runtime (also one made at run time), its
// token, deployed apps and schemas come back with the seed; its jobs go. A module that stopped polling long ago
// is not kept. The real SDKs across a reset: test/clients/compute-module-reset.test.ts and
// test/clients/python/test_compute_module_reset.py.
import { afterEach, describe, expect, it } from 'vitest';
import { harness, type Harness, RUNTIMES, MUX, RUNTIME, TOKEN } from './helpers.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.app.close();
  h = undefined;
});

const DYN = 'rt-made-at-run-time';
const DYN_APP = 'ri.foundry.main.deployed-app.dyn';
const DYN_TOKEN = 'dynamic-module-token-0001';

async function reset(h: Harness) {
  const res = await h.app.inject({ method: 'POST', url: '/_emulate/platform/reset' });
  expect(res.statusCode).toBe(200);
}

describe('a reset', () => {
  it('keeps the session of a connected module whose runtime was made at run time: token, app and schemas', async () => {
    h = await harness({ pollTimeoutMs: 50, moduleGoneMs: 60_000 });
    expect((await h.openSession({ runtimeId: DYN, deployedAppRid: DYN_APP, moduleAuthToken: DYN_TOKEN })).statusCode).toBe(200);
    const schemas = [{ functionName: 'add', inputs: [], output: { type: 'single' } }];
    expect(
      (await h.app.inject({ method: 'POST', url: `${RUNTIMES}/${DYN}/schemas`, headers: { 'module-auth-token': DYN_TOKEN }, payload: schemas })).statusCode,
    ).toBe(200);
    const before = await h.submit({ deployedAppRid: DYN_APP, queryType: 'add', query: {} });
    expect((await h.poll(DYN_TOKEN, DYN)).json().computeModuleJobV1.jobId).toBe(before.id); // connected

    await reset(h);
    h.auth.authorization = `Bearer ${await (await h.app.inject({ method: 'POST', url: '/_emulate/platform/tokens', payload: { username: 'admin' } })).json().access_token}`;

    // The same token polls on: an empty queue (204), not 404.
    expect((await h.poll(DYN_TOKEN, DYN)).statusCode).toBe(204);
    const listed = await h.app.inject({ method: 'GET', url: `${MUX}/schemas?rid=${DYN_APP}&branch=master`, headers: h.auth });
    expect((listed.json() as Array<{ functionName: string }>).map((s) => s.functionName)).toEqual(['add']);
    const after = await h.submit({ deployedAppRid: DYN_APP, queryType: 'add', query: {} });
    expect((await h.poll(DYN_TOKEN, DYN)).json().computeModuleJobV1.jobId).toBe(after.id);
    expect((await h.app.inject({ method: 'GET', url: `${RUNTIMES}/${DYN}/jobs/${before.id}` })).statusCode).toBe(404); // its jobs went
  });

  it('keeps the token a connected module was given for a seeded runtime', async () => {
    h = await harness({ pollTimeoutMs: 50, moduleGoneMs: 60_000 });
    const session = (await h.openSession({ runtimeId: RUNTIME })).json() as { moduleAuthToken: string };
    expect(session.moduleAuthToken).not.toBe(TOKEN);
    expect((await h.poll(session.moduleAuthToken)).statusCode).toBe(204);
    await reset(h);
    expect((await h.poll(session.moduleAuthToken)).statusCode).toBe(204); // not 401
  });

  it('forgets a runtime made at run time whose module is gone', async () => {
    h = await harness({ pollTimeoutMs: 50, moduleGoneMs: 1_000 });
    expect((await h.openSession({ runtimeId: DYN, deployedAppRid: DYN_APP, moduleAuthToken: DYN_TOKEN })).statusCode).toBe(200);
    expect((await h.poll(DYN_TOKEN, DYN)).statusCode).toBe(204);
    h.clock.advance(5_000);
    await reset(h);
    expect((await h.poll(DYN_TOKEN, DYN)).statusCode).toBe(404);
  });
});
