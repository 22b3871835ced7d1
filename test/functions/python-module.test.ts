// Conformance: a module written with PyPI foundry-compute-modules 0.34.0 (test/clients/python/modules/
// functions_app.py), started through `run-module` (in-pod HTTPS runtime), serves its functions as queries
// (docs/functions.md), called through @osdk/foundry.ontologies 2.57.0. Needs the Python virtualenv (.venv).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatformClient } from '@osdk/client';
import { Queries, QueryTypes } from '@osdk/foundry.ontologies';
import { hasPython, PYTHON, seedFor, startFunctions, type LiveFunctions } from './live.js';

const APP = { rid: 'ri.foundry.main.deployed-app.pyfns', runtime: 'pyfns-runtime', namespace: 'pyacme' };
const Q = (name: string) => `com.pyacme.computemodules.${name}`;

// Skipped only without the Python virtualenv (COMMON setup: `ln -s /work/main/.venv .venv`; CI makes it).
describe.skipIf(!hasPython())('a Python module serves functions', () => {
  let live: LiveFunctions;
  beforeAll(async () => {
    live = await startFunctions({
      seed: seedFor(APP),
      runtime: APP.runtime,
      command: [PYTHON, 'test/clients/python/modules/functions_app.py'],
      expectSchemas: 4,
    });
  }, 120_000);
  afterAll(async () => {
    await live?.stop();
  });
  const platform = async () => {
    const token = await live.token();
    return createPlatformClient(live.url, async () => token);
  };
  const failure = (p: Promise<unknown>) =>
    p.then(
      () => ({}) as Record<string, unknown>,
      (e: Record<string, unknown>) => e,
    );

  it('maps dates, sets, maps and optionals from the schema it posts', async () => {
    const q = await QueryTypes.get(await platform(), 'acme', Q('summarize'));
    expect(q.parameters).toEqual({
      title: { dataType: { type: 'string' }, required: true },
      day: { dataType: { type: 'date' }, required: true },
      amounts: { dataType: { type: 'array', subType: { type: 'float' } }, required: true },
      labels: { dataType: { type: 'set', subType: { type: 'string' } }, required: true },
      weights: { dataType: { type: 'entrySet', keyType: { type: 'string' }, valueType: { type: 'integer' } }, required: true },
      note: { dataType: { type: 'string' }, required: false },
    });
    expect(q.output).toMatchObject({ type: 'struct' });
  });

  it('runs them and answers in the output type', async () => {
    const c = await platform();
    expect(await Queries.execute(c, 'acme', Q('add'), { parameters: { a: 3, b: 4 } })).toEqual({ value: 7 });
    const summary = await Queries.execute(c, 'acme', Q('summarize'), {
      parameters: { title: 'q3', day: '2024-02-28', amounts: [1.5, 2], labels: ['b', 'a', 'b'], weights: [{ key: 'x', value: 10 }] },
    });
    expect(summary).toEqual({ value: { title: 'Q3', day_after: '2024-02-29', total: 13.5, distinct: ['a', 'b'] } });
    const counts = await Queries.execute(c, 'acme', Q('count_words'), { parameters: { words: ['a', 'b', 'a'] } });
    expect(counts).toEqual({
      value: [
        { key: 'a', value: 2 },
        { key: 'b', value: 1 },
      ],
    });
  });

  it("a function that raises is QueryRuntimeError with the module's message and traceback", async () => {
    const e = await failure(Queries.execute(await platform(), 'acme', Q('fail'), { parameters: { message: 'no such order' } }));
    expect(e).toMatchObject({ statusCode: 400, errorName: 'QueryRuntimeError', parameters: { message: 'no such order' } });
    expect(String((e.parameters as Record<string, unknown>).stacktrace)).toMatch(/^Traceback/);
  });

  it('a bad date is refused before the module sees it', async () => {
    const e = await failure(
      Queries.execute(await platform(), 'acme', Q('summarize'), { parameters: { title: 't', day: '2024-13-01', amounts: [], labels: [], weights: [] } }),
    );
    expect(e).toMatchObject({ statusCode: 400, errorName: 'InvalidParameterValue', parameters: { parameterId: 'day' } });
  });
});
