// Object and object set parameters of functions (docs/functions.md, "Types"), in process. Neither installed
// compute-module SDK can declare them (their schema writers post only primitives, collections and structs), so
// the schema is posted as a module posting its own would: `objectReference` / `objectSet` naming the object
// type. They are listed as the query types `object` / `objectSet`; a primary key of no object is refused before
// any job exists; a good call reaches the module with the primary key and the object set definition.
import { afterEach, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, mintToken, type TestApp } from '../helpers/app.js';

const TOKEN = 'module-token-0123456789';
const RT = '/_emulate/platform/compute-modules/runtimes/rt';
const SEED = `
platform:
  users: [{ username: dev }]
  ontologies:
    - api_name: acme
      rid: ri.ontology.main.ontology.acme
      display_name: Acme
      object_types:
        - { api_name: Employee, primary_key: employeeId, properties: { employeeId: integer, fullName: string } }
      objects:
        Employee: [{ employeeId: 1, fullName: Alice }]
  compute_modules:
    poll_timeout_ms: 200
    runtimes: [{ runtime_id: rt, module_auth_token: ${TOKEN} }]
    deployed_apps:
      - { deployed_app_rid: ri.app.one, runtime_id: rt, functions: { namespace: acme, ontologies: [acme], timeout_ms: 5000 } }
`;
const Q = 'com.acme.computemodules.promote';
const SCHEMA = {
  functionName: 'promote',
  inputs: [
    { name: 'employee', required: true, constraints: [], dataType: { type: 'objectReference', objectReference: { objectTypeId: 'Employee' } } },
    { name: 'team', required: false, constraints: [], dataType: { type: 'objectSet', objectSet: { objectTypeId: 'Employee' } } },
  ],
  output: { type: 'single', single: { dataType: { type: 'string', string: {} } } },
};

let t: TestApp | undefined;
afterEach(async () => {
  await t?.app.close();
  t = undefined;
});

async function start() {
  t = await buildTestApp({ seed: SEED });
  const app = t.app;
  const posted = await app.inject({ method: 'POST', url: `${RT}/schemas`, headers: { 'module-auth-token': TOKEN }, payload: [SCHEMA] });
  expect(posted.statusCode).toBe(200);
  return { app, token: await mintToken(app, 'dev', ['api:ontologies-read']) };
}
const execute = (app: TestApp['app'], token: string, parameters: unknown) =>
  app.inject({ method: 'POST', url: `/api/v2/ontologies/acme/queries/${Q}/execute`, headers: bearer(token), payload: { parameters } });
const jobCount = async (app: TestApp['app']) =>
  ((await app.inject({ url: '/_emulate/platform/compute-modules/runtimes' })).json() as { runtimes: Array<{ jobs: unknown[] }> }).runtimes[0]!.jobs.length;

describe('object and object set parameters', () => {
  it('are listed as the query types object and objectSet', async () => {
    const { app, token } = await start();
    const q = (await app.inject({ url: `/api/v2/ontologies/acme/queryTypes/${Q}`, headers: bearer(token) })).json();
    expect(q.parameters).toEqual({
      employee: { dataType: { type: 'object', objectApiName: 'Employee', objectTypeApiName: 'Employee' }, required: true },
      team: { dataType: { type: 'objectSet', objectApiName: 'Employee', objectTypeApiName: 'Employee' }, required: false },
    });
  });

  it('a primary key of no object, or a value of the wrong shape, is refused before any job exists', async () => {
    const { app, token } = await start();
    const missing = await execute(app, token, { employee: 99 });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ errorName: 'ObjectNotFound', parameters: { objectType: 'Employee', primaryKey: 99 } });
    const wrong = await execute(app, token, { employee: { name: 'Alice' } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ errorName: 'InvalidParameterValue' });
    const badSet = await execute(app, token, { employee: 1, team: 'everyone' });
    expect(badSet.json()).toMatchObject({ errorName: 'InvalidParameterValue' });
    expect(await jobCount(app)).toBe(0);
  });

  it('a good call reaches the module with the primary key and the object set definition', async () => {
    const { app, token } = await start();
    const team = { type: 'base', objectType: 'Employee' };
    const call = execute(app, token, { employee: 1, team });
    let job: { jobId: string; query: unknown } | undefined;
    for (let i = 0; i < 50 && !job; i++) {
      const polled = await app.inject({ url: `${RT}/job`, headers: { 'module-auth-token': TOKEN } });
      if (polled.statusCode === 200) job = polled.json().computeModuleJobV1;
    }
    expect(job!.query).toEqual({ employee: 1, team });
    await app.inject({ method: 'POST', url: `${RT}/results/${job!.jobId}`, headers: { 'module-auth-token': TOKEN }, payload: JSON.stringify('promoted') });
    const answered = await call;
    expect(answered.statusCode).toBe(200);
    expect(answered.json()).toEqual({ value: 'promoted' });
  });
});
