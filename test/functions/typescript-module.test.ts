// Conformance: a module written with @palantir/compute-module 0.2.7 (test/fixtures/compute-module/functions.mjs),
// started through `run-module`, serves its functions as queries (docs/functions.md). Callers: the platform SDK's
// @osdk/foundry.ontologies 2.57.0 (Queries.execute, QueryTypes.get/list), @osdk/foundry.functions 2.57.0
// (Queries.execute/get/getByRid) and the typed client's executeFunction (@osdk/client as pinned in package.json).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, createPlatformClient } from '@osdk/client';
import type { QueryDefinition } from '@osdk/api';
import { Actions, OntologyObjectsV2, Queries, QueryTypes } from '@osdk/foundry.ontologies';
import { Queries as FunctionQueries } from '@osdk/foundry.functions';
import { seedFor, startFunctions, type LiveFunctions } from './live.js';

const APP = { rid: 'ri.foundry.main.deployed-app.fns', runtime: 'fns-runtime', namespace: 'acme', timeoutMs: 4000 };
const Q = (name: string) => `com.acme.computemodules.${name}`;
const FUNCTIONS = ['add', 'badEdits', 'die', 'explode', 'liar', 'profile', 'relocate', 'slow'];

let live: LiveFunctions;
beforeAll(async () => {
  live = await startFunctions({
    seed: seedFor(APP),
    runtime: APP.runtime,
    command: [process.execPath, 'test/fixtures/compute-module/functions.mjs'],
    expectSchemas: FUNCTIONS.length,
  });
}, 120_000);
afterAll(async () => {
  await live?.stop();
});

const platform = async (scopes?: string[]) => {
  const token = await live.token(scopes);
  return createPlatformClient(live.url, async () => token);
};
const failure = (p: Promise<unknown>) =>
  p.then(
    () => ({}) as Record<string, unknown>,
    (e: Record<string, unknown>) => e,
  );

describe('registration', () => {
  it('each posted function is a query type of the listed ontology, parameters and output mapped', async () => {
    const c = await platform();
    const list = await QueryTypes.list(c, 'acme');
    const names = list.data.map((q) => q.apiName);
    // The seeded query of the same name wins: it is listed once, as seeded.
    expect(names.filter((n) => n.startsWith('com.acme.computemodules.')).sort()).toEqual([...FUNCTIONS.map(Q), Q('shadowed')].sort());
    const profile = await QueryTypes.get(c, 'acme', Q('profile'));
    expect(profile).toMatchObject({ apiName: Q('profile'), version: '0.0.0', typeReferences: {} });
    expect(profile.rid).toMatch(/^ri\.function-registry\.main\.function\.[0-9a-f-]{36}$/);
    expect(profile.parameters).toEqual({
      name: { dataType: { type: 'string' }, required: true },
      tags: { dataType: { type: 'array', subType: { type: 'string' } }, required: true },
      score: { dataType: { type: 'float' }, required: true },
      vip: { dataType: { type: 'boolean' }, required: false },
    });
    expect(profile.output).toEqual({
      type: 'struct',
      fields: [
        { name: 'greeting', fieldType: { type: 'string' }, required: true },
        { name: 'tagCount', fieldType: { type: 'integer' }, required: true },
        { name: 'tags', fieldType: { type: 'array', subType: { type: 'string' } }, required: true },
        { name: 'vip', fieldType: { type: 'boolean' }, required: true },
      ],
    });
  });

  it('an ontology the app does not list has none of them', async () => {
    const c = await platform();
    expect((await QueryTypes.list(c, 'other')).data).toEqual([]);
    expect(await failure(QueryTypes.get(c, 'other', Q('add')))).toMatchObject({ statusCode: 404, errorName: 'QueryNotFound' });
  });
});

describe('execution', () => {
  it('Queries.execute runs the module and answers {value}', async () => {
    const c = await platform();
    expect(await Queries.execute(c, 'acme', Q('add'), { parameters: { a: 2, b: 40 } })).toEqual({ value: 42 });
    expect(await Queries.execute(c, 'ri.ontology.main.ontology.acme', Q('profile'), { parameters: { name: 'Ada', tags: ['z', 'a'], score: 1.5 } })).toEqual({
      value: { greeting: 'hello Ada', tagCount: 2, tags: ['a', 'z'], vip: false },
    });
  });

  it('the seeded query of the same name answers, not the module', async () => {
    const c = await platform();
    expect(await Queries.execute(c, 'acme', Q('shadowed'), { parameters: { x: 1 } })).toEqual({ value: 'seeded wins' });
  });

  it('the functions API serves them by api name and rid', async () => {
    const c = await platform(['api:functions-read']);
    const add = await FunctionQueries.get(c, Q('add'));
    expect(add).toMatchObject({ apiName: Q('add'), version: '0.0.0', output: { type: 'integer' } });
    expect(await FunctionQueries.getByRid(c, { rid: add.rid })).toEqual(add);
    expect(await FunctionQueries.execute(c, Q('add'), { parameters: { a: 1, b: 1 } })).toEqual({ value: 2 });
    expect(await FunctionQueries.execute(c, Q('add'), { parameters: { a: 1, b: 1 }, version: '0.0.0' })).toEqual({ value: 2 });
    expect(await failure(FunctionQueries.execute(c, Q('nope'), { parameters: {} }))).toMatchObject({
      statusCode: 404,
      errorName: 'QueryNotFound',
      parameters: { queryApiName: Q('nope') },
    });
    expect(await failure(FunctionQueries.getByRid(c, { rid: 'ri.function-registry.main.function.x' }))).toMatchObject({
      statusCode: 404,
      errorName: 'FunctionNotFound',
    });
  });

  it('the typed client executeFunction calls it', async () => {
    const token = await live.token();
    const client = createClient(live.url, 'ri.ontology.main.ontology.acme', async () => token);
    const add = { type: 'query', apiName: Q('add'), version: '0.0.0', osdkMetadata: { extraUserAgent: '' } } as unknown as QueryDefinition<
      (q: { a: number; b: number }) => Promise<number>
    >;
    expect(await client(add).executeFunction({ a: 20, b: 22 })).toBe(42);
  });

  it('many concurrent calls all get their own answer', async () => {
    const c = await platform();
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => Queries.execute(c, 'acme', Q('add'), { parameters: { a: i, b: 100 } })));
    expect(answers).toEqual(Array.from({ length: 30 }, (_, i) => ({ value: i + 100 })));
  });
});

describe('function-backed actions', () => {
  const WRITE = ['api:ontologies-read', 'api:ontologies-write'];
  const employee = async () => (await OntologyObjectsV2.get(await platform(), 'acme', 'Employee', '1', { select: [] })) as Record<string, unknown>;

  it('VALIDATE_ONLY runs nothing and answers valid', async () => {
    const c = await platform(WRITE);
    const res = await Actions.apply(c, 'acme', 'relocateEmployee', {
      parameters: { employee: 1, office: 'ldn' },
      options: { mode: 'VALIDATE_ONLY', returnEdits: 'ALL' },
    });
    expect(res.validation).toMatchObject({ result: 'VALID' });
    expect(res.edits).toBeUndefined();
    expect((await employee()).officeId).toBe('nyc');
  });

  it('apply runs the function and applies the edits it returns, with returnEdits', async () => {
    const c = await platform(WRITE);
    const res = await Actions.apply(c, 'acme', 'relocateEmployee', { parameters: { employee: 1, office: 'ldn' }, options: { returnEdits: 'ALL' } });
    expect(res.validation).toMatchObject({ result: 'VALID' });
    expect(res.edits).toMatchObject({ type: 'edits', addedObjectCount: 1, modifiedObjectsCount: 1 });
    expect((await employee()).officeId).toBe('ldn');
    expect(await OntologyObjectsV2.get(await platform(), 'acme', 'Office', 'ldn', { select: [] })).toMatchObject({ officeId: 'ldn', name: 'Office ldn' });
  });

  it('an edit to an unknown property or object type fails the action, naming it, and nothing is applied', async () => {
    const c = await platform(WRITE);
    for (const what of ['property', 'type']) {
      const e = await failure(Actions.apply(c, 'acme', 'breakThings', { parameters: { employee: 1, what } }));
      expect(e).toMatchObject({ statusCode: 400, errorName: 'ActionValidationFailed', parameters: { actionType: 'breakThings' } });
    }
    expect((await employee()).fullName).toBe('Alice');
    const journal = JSON.stringify(await (await fetch(`${live.url}/_emulate/platform/journal?limit=5`)).json());
    expect(journal).toMatch(/has no property \\"salary\\"|has no object type \\"Spaceship\\"/);
  });
});

describe('bad input and failures', () => {
  it('wrong, unknown and missing parameters are refused before any job', async () => {
    const c = await platform();
    expect(await failure(Queries.execute(c, 'acme', Q('add'), { parameters: { a: 'two', b: 1 } }))).toMatchObject({
      statusCode: 400,
      errorName: 'InvalidParameterValue',
      parameters: { parameterId: 'a', parameterDataType: { type: 'integer' }, parameterValue: 'two' },
    });
    expect(await failure(Queries.execute(c, 'acme', Q('add'), { parameters: { a: 1, b: 2, c: 3 } }))).toMatchObject({
      statusCode: 400,
      errorName: 'UnknownParameter',
    });
    expect(await failure(Queries.execute(c, 'acme', Q('add'), { parameters: { a: 1 } }))).toMatchObject({
      statusCode: 400,
      errorName: 'MissingParameter',
      parameters: { parameters: ['b'] },
    });
    expect(await failure(Queries.execute(c, 'acme', Q('profile'), { parameters: { name: 'x', tags: ['a', 3], score: 1 } }))).toMatchObject({
      errorName: 'InvalidParameterValue',
      parameters: { parameterId: 'tags' },
    });
    expect(await failure(Queries.execute(c, 'acme', Q('unknownFunction'), { parameters: {} }))).toMatchObject({ statusCode: 404, errorName: 'QueryNotFound' });
  });

  it("a function that throws is QueryRuntimeError with the module's message", async () => {
    const c = await platform();
    expect(await failure(Queries.execute(c, 'acme', Q('explode'), { parameters: { message: 'kaboom' } }))).toMatchObject({
      statusCode: 400,
      errorCode: 'INVALID_ARGUMENT',
      errorName: 'QueryRuntimeError',
      parameters: { message: 'Error: kaboom', functionVersion: '0.0.0' },
    });
  });

  it('a value that does not fit the output type is InvalidQueryOutputValue', async () => {
    const c = await platform();
    expect(await failure(Queries.execute(c, 'acme', Q('liar'), { parameters: {} }))).toMatchObject({
      statusCode: 400,
      errorName: 'InvalidQueryOutputValue',
      parameters: { outputDataType: { type: 'integer' }, outputValue: 'not a number' },
    });
  });

  it('no answer within functions.timeout_ms is QueryTimeExceededLimit and the job is canceled', async () => {
    const c = await platform();
    const started = Date.now();
    const e = await failure(Queries.execute(c, 'acme', Q('slow'), { parameters: { ms: 8000 } }));
    expect(e).toMatchObject({ statusCode: 500, errorCode: 'TIMEOUT', errorName: 'QueryTimeExceededLimit' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(APP.timeoutMs - 50);
    const journal = (await (await fetch(`${live.url}/_emulate/platform/journal?limit=20`)).json()) as { entries?: Array<{ url?: string; reason?: string }> };
    const entry = JSON.stringify(journal).match(/Job ([0-9a-f-]{36}) of com\.acme\.computemodules\.slow had no answer/);
    expect(entry).not.toBeNull();
    const job = await fetch(`${live.url}/_emulate/platform/compute-modules/runtimes/${APP.runtime}/jobs/${entry![1]}`);
    expect(((await job.json()) as { job: { status: { type: string } } }).job.status.type).toBe('canceled');
  }, 20_000);

  it('a module that dies mid-call fails the call within the timeout, never hangs', async () => {
    const c = await platform();
    const started = Date.now();
    const e = await failure(Queries.execute(c, 'acme', Q('die'), { parameters: {} }));
    expect(e).toMatchObject({ statusCode: 500, errorName: 'QueryTimeExceededLimit' });
    expect(Date.now() - started).toBeLessThan(APP.timeoutMs + 3000);
    expect((await live.exited).code).not.toBe(0);
  }, 20_000);
});
