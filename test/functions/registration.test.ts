// Registration and the seed of functions (docs/functions.md), in process: schemas posted as a module posts them
// become query types, are replaced when posted again and gone on reset; `register` limits them; the seed is
// checked and exported; scopes; a call no module answers times out and its job is canceled.
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { bearer, buildTestApp, mintToken, platformError, type TestApp } from '../helpers/app.js';
import { validateSeed } from '../../src/seed/load.js';
import { SERVICES, seedCodecsOf } from '../../src/services/index.js';

const TOKEN = 'module-token-0123456789';
const seed = (functions: string, extra = '') => `
platform:
  users: [{ username: dev }]
  ontologies:
    - { api_name: acme, rid: ri.ontology.main.ontology.acme, display_name: Acme }
    - { api_name: other, rid: ri.ontology.main.ontology.other, display_name: Other }
  compute_modules:
    runtimes: [{ runtime_id: rt, module_auth_token: ${TOKEN} }]
    deployed_apps:
      - { deployed_app_rid: ri.app.one, runtime_id: rt, functions: ${functions} }
${extra}`;

const schema = (functionName: string, inputs: Array<[string, unknown, boolean?]>, output: unknown) => ({
  functionName,
  inputs: inputs.map(([name, dataType, required]) => ({ name, dataType, required: required ?? true, constraints: [] })),
  output: { type: 'single', single: { dataType: output } },
});
const INT = { type: 'integer', integer: {} };
const STR = { type: 'string', string: {} };

let t: TestApp | undefined;
afterEach(async () => {
  await t?.app.close();
  t = undefined;
});

async function start(functions: string, extra?: string) {
  t = await buildTestApp({ seed: seed(functions, extra) });
  return { app: t.app, token: await mintToken(t.app, 'dev', ['api:ontologies-read']) };
}
const post = (app: TestApp['app'], schemas: unknown[]) =>
  app.inject({ method: 'POST', url: '/_emulate/platform/compute-modules/runtimes/rt/schemas', headers: { 'module-auth-token': TOKEN }, payload: schemas });
const queryNames = async (app: TestApp['app'], token: string, ontology = 'acme') =>
  ((await app.inject({ url: `/api/v2/ontologies/${ontology}/queryTypes`, headers: bearer(token) })).json() as { data: Array<{ apiName: string }> }).data.map(
    (q) => q.apiName,
  );

describe('registration', () => {
  it('posted schemas become query types; posted again they are replaced; reset removes them', async () => {
    const { app, token } = await start('{ namespace: acme, ontologies: [acme] }');
    expect(await queryNames(app, token)).toEqual([]);
    expect(
      (
        await post(app, [
          schema(
            'add',
            [
              ['a', INT],
              ['b', INT],
            ],
            INT,
          ),
          schema('hello', [['name', STR, false]], STR),
        ])
      ).statusCode,
    ).toBe(200);
    expect(await queryNames(app, token)).toEqual(['com.acme.computemodules.add', 'com.acme.computemodules.hello']);
    expect(await queryNames(app, token, 'other')).toEqual([]);
    const hello = (await app.inject({ url: '/api/v2/ontologies/acme/queryTypes/com.acme.computemodules.hello', headers: bearer(token) })).json();
    expect(hello.parameters).toEqual({ name: { dataType: { type: 'string' }, required: false } });
    await post(app, [schema('bye', [], STR)]);
    expect(await queryNames(app, token)).toEqual(['com.acme.computemodules.bye']);
    expect((await app.inject({ method: 'POST', url: '/_emulate/platform/reset' })).statusCode).toBeLessThan(300);
    expect(await queryNames(app, await mintToken(app, 'dev', ['api:ontologies-read']))).toEqual([]);
  });

  it('`register: [names]` registers only those; no `ontologies` lists them everywhere', async () => {
    const { app, token } = await start('{ namespace: geo, register: [add] }');
    await post(app, [schema('add', [['a', INT]], INT), schema('secret', [], STR)]);
    expect(await queryNames(app, token)).toEqual(['com.geo.computemodules.add']);
    expect(await queryNames(app, token, 'other')).toEqual(['com.geo.computemodules.add']);
  });

  it('an unknown or odd schema type is listed as unsupported, never a 500', async () => {
    const { app, token } = await start('{ namespace: acme }');
    await post(app, [
      schema(
        'odd',
        [
          ['blob', { type: 'binary', binary: {} }],
          ['weird', 'not-a-type'],
        ],
        { type: 'somethingNew' },
      ),
      { functionName: 'bad name!' },
      { inputs: 'none' },
    ]);
    const odd = (await app.inject({ url: '/api/v2/ontologies/acme/queryTypes/com.acme.computemodules.odd', headers: bearer(token) })).json();
    expect(odd.parameters.blob.dataType).toEqual({ type: 'unsupported', unsupportedType: 'binary' });
    expect(odd.output).toEqual({ type: 'unsupported', unsupportedType: 'somethingNew' });
    expect(await queryNames(app, token)).toEqual(['com.acme.computemodules.odd']);
  });
});

describe('execution without a module', () => {
  it('no module polling: the call waits for functions.timeout_ms, then QueryTimeExceededLimit, and the job is canceled', async () => {
    const { app, token } = await start('{ namespace: acme, timeout_ms: 150 }');
    await post(app, [schema('add', [['a', INT]], INT)]);
    const res = await app.inject({
      method: 'POST',
      url: '/api/v2/ontologies/acme/queries/com.acme.computemodules.add/execute',
      headers: bearer(token),
      payload: { parameters: { a: 1 } },
    });
    expect(res.statusCode).toBe(500);
    expect(platformError(res.json())).toMatchObject({ errorCode: 'TIMEOUT', errorName: 'QueryTimeExceededLimit' });
    const jobs = await t!.store.computeModuleJobs.listByRuntime('rt', 10);
    expect(jobs.map((j) => [j.queryType, j.state])).toEqual([['add', 'canceled']]);
  });

  it('the functions routes take any one of their scopes, and refuse a token with none', async () => {
    const { app } = await start('{ namespace: acme }');
    await post(app, [schema('add', [['a', INT]], INT)]);
    const none = await mintToken(app, 'dev', ['api:admin-read']);
    const refused = await app.inject({ url: '/api/v2/functions/queries/com.acme.computemodules.add', headers: bearer(none) });
    expect(refused.statusCode).toBe(403);
    expect(platformError(refused.json())).toMatchObject({ errorName: 'ApiUsageDenied' });
    for (const scope of ['api:functions-read', 'api:functions-execute', 'api:ontologies-read']) {
      const ok = await app.inject({ url: '/api/v2/functions/queries/com.acme.computemodules.add', headers: bearer(await mintToken(app, 'dev', [scope])) });
      expect(ok.statusCode).toBe(200);
    }
  });

  it('seeded queries are served by the functions API too, with required on every parameter', async () => {
    const extra = '';
    t = await buildTestApp({
      seed: seed('{ namespace: acme }', extra).replace(
        '{ api_name: acme, rid: ri.ontology.main.ontology.acme, display_name: Acme }',
        '{ api_name: acme, rid: ri.ontology.main.ontology.acme, display_name: Acme, queries: [{ api_name: greet, parameters: { name: string }, output: string, result: { value: hi } }] }',
      ),
    });
    const token = await mintToken(t.app, 'dev', ['api:functions-execute']);
    const got = (await t.app.inject({ url: '/api/v2/functions/queries/greet', headers: bearer(token) })).json();
    expect(got.parameters).toEqual({ name: { dataType: { type: 'string' }, required: true } });
    const run = await t.app.inject({
      method: 'POST',
      url: '/api/v2/functions/queries/greet/execute',
      headers: bearer(token),
      payload: { parameters: { name: 'x' } },
    });
    expect(run.json()).toEqual({ value: 'hi' });
    const byRid = await t.app.inject({ url: `/api/v2/functions/queries/getByRid?rid=${encodeURIComponent(got.rid)}`, headers: bearer(token) });
    expect(byRid.json()).toEqual(got);
  });
});

describe('the seed', () => {
  const codecs = seedCodecsOf(SERVICES);
  it('names an unknown ontology and an app that is not seeded, by path', () => {
    const doc = parse(seed('{ namespace: acme, ontologies: [nope] }', '  functions: { apps: [{ deployed_app_rid: ri.app.missing, namespace: x }] }'));
    expect(() => validateSeed(doc, '<inline>', codecs)).toThrow(
      /deployed_apps\[0\]\.functions\.ontologies\[0\]: no seeded ontology has the api name "nope"[\s\S]*platform\.functions\.apps\[0\]\.deployed_app_rid: no seeded deployed app "ri\.app\.missing"/,
    );
    expect(() => validateSeed(parse(seed('{ namespace: "a.b" }')), '<inline>', codecs)).toThrow(/functions\/namespace|functions\.namespace/);
  });

  it('exports the configuration under platform.functions.apps, and that form seeds the same', async () => {
    await start('{ namespace: acme, ontologies: [acme], timeout_ms: 1234 }');
    const state = (await t!.app.inject({ url: '/_emulate/platform/state', headers: { accept: 'application/json' } })).json();
    const apps = [{ deployed_app_rid: 'ri.app.one', branch: 'master', namespace: 'acme', ontologies: ['acme'], register: 'auto', timeout_ms: 1234 }];
    expect(state.platform.functions).toEqual({ apps });
    await t!.app.close();
    t = await buildTestApp({ seed: { platform: { ...state.platform, functions: { apps } } } });
    const again = (await t.app.inject({ url: '/_emulate/platform/state', headers: { accept: 'application/json' } })).json();
    expect(again.platform.functions).toEqual({ apps });
  });
});
