// The object routes over HTTP (docs/contracts.md §9): envelopes and SDK error types for bad input, scopes, `preview`
// in any letter case, named refusals of what is not supported, and reset returning objects to the seed.
import { beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { bearer, buildTestApp, mintToken, platformError } from '../helpers/app.js';
import { ACME_SEED } from './fixture.js';

let app: FastifyInstance;
let headers: Record<string, string>;

beforeEach(async () => {
  ({ app } = await buildTestApp({ seed: ACME_SEED }));
  headers = bearer(await mintToken(app, 'dev', ['api:ontologies-read', 'api:ontologies-write']));
});

const get = (url: string, h = headers) => app.inject({ method: 'GET', url, headers: h });
const post = (url: string, payload: unknown, h = headers) => app.inject({ method: 'POST', url, headers: h, payload: payload as object });
const load = (objectSet: unknown, extra: Record<string, unknown> = {}) =>
  post('/api/v2/ontologies/acme/objectSets/loadObjects', { objectSet, select: [], ...extra });
const base = { type: 'base', objectType: 'Employee' };
const filter = (where: unknown) => ({ type: 'filter', objectSet: base, where });

describe('ontology objects over HTTP', () => {
  it('accepts preview in any letter case and ignores it', async () => {
    for (const q of ['preview=true', 'PREVIEW=true', 'Preview=TRUE']) {
      const res = await get(`/api/v2/ontologies/acme/objects/Employee/1?${q}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().__primaryKey).toBe(1);
    }
  });

  it('reads need api:ontologies-read and actions api:ontologies-write (403 ApiUsageDenied)', async () => {
    const writer = bearer(await mintToken(app, 'dev', ['api:ontologies-write']));
    const denied = await get('/api/v2/ontologies/acme/objects/Employee', writer);
    expect(denied.statusCode).toBe(403);
    expect(platformError(denied.json())).toMatchObject({ errorName: 'ApiUsageDenied', parameters: { missingScope: 'api:ontologies-read' } });
    const reader = bearer(await mintToken(app, 'dev', ['api:ontologies-read']));
    const apply = await post('/api/v2/ontologies/acme/actions/promoteEmployee/apply', { parameters: { employee: 1, newTitle: 'x' } }, reader);
    expect(apply.statusCode).toBe(403);
    expect(apply.json().parameters).toEqual({ missingScope: 'api:ontologies-write' });
    expect((await app.inject({ url: '/api/v2/ontologies/acme/objects/Employee' })).statusCode).toBe(401);
  });

  it('a primary key is read as its type: "01" is no integer key', async () => {
    expect((await get('/api/v2/ontologies/acme/objects/Employee/01')).json()).toMatchObject({ errorName: 'ObjectNotFound' });
    expect((await get('/api/v2/ontologies/acme/objects/Employee/1.0')).statusCode).toBe(404);
    expect((await get('/api/v2/ontologies/missing/objects/Employee/1')).json()).toMatchObject({ errorName: 'OntologyNotFound' });
  });

  it('paging: bad tokens and sizes are 400s; pages never overlap', async () => {
    expect((await get('/api/v2/ontologies/acme/objects/Employee?pageToken=garbage')).statusCode).toBe(400);
    expect((await get('/api/v2/ontologies/acme/objects/Employee?pageSize=0')).statusCode).toBe(400);
    expect((await load(base, { pageSize: -1 })).statusCode).toBe(400);
    const seen: unknown[] = [];
    let token: string | undefined;
    do {
      const body = (await load(base, { pageSize: 2, pageToken: token, orderBy: { fields: [{ field: 'title' }] } })).json();
      seen.push(...body.data.map((o: { __primaryKey: number }) => o.__primaryKey));
      token = body.nextPageToken;
    } while (token);
    expect(seen).toEqual([4, 1, 2, 3, 5]);
  });

  it('names what it does not evaluate in a 400, never a wrong answer', async () => {
    const cases: Array<[unknown, Record<string, unknown>]> = [
      [filter({ type: 'wildcard', field: 'fullName', value: 'A*' }), { 'where clause': 'wildcard' }],
      [filter({ type: 'withinDistanceOf', field: 'home', value: {} }), { 'where clause': 'withinDistanceOf' }],
      [filter({ type: 'containsAnyTerm', field: 'bio', value: 'york', fuzzy: true }), { 'where clause option': 'containsAnyTerm.fuzzy' }],
      [{ type: 'nearestNeighbors', objectSet: base }, { 'object set type': 'nearestNeighbors' }],
      // withProperties and interfaceBase are evaluated (docs/live-ontology.md); what they do not cover is named.
      [{ type: 'withProperties', objectSet: base, derivedProperties: { x: { type: 'add', properties: [] } } }, { 'derived property definition': 'add' }],
    ];
    for (const [set, parameters] of cases) {
      const res = await load(set);
      expect(res.statusCode).toBe(400);
      expect(platformError(res.json())).toMatchObject({ errorCode: 'INVALID_ARGUMENT', errorName: 'NotSupportedByEmulator', parameters });
    }
    const noInterface = await load({ type: 'interfaceBase', interfaceType: 'X' });
    expect(noInterface.statusCode).toBe(404);
    expect(platformError(noInterface.json())).toMatchObject({ errorName: 'InterfaceTypeNotFound', parameters: { apiName: 'X' } });
    const relevance = await load(base, { orderBy: { orderType: 'relevance', fields: [] } });
    expect(relevance.json().parameters).toEqual({ 'orderBy orderType': 'relevance' });
    const agg = await post('/api/v2/ontologies/acme/objectSets/aggregate', {
      objectSet: base,
      aggregation: [{ type: 'approximatePercentile', field: 'salary', approximatePercentile: 0.5 }],
      groupBy: [],
    });
    expect(agg.json().parameters).toEqual({ aggregation: 'approximatePercentile' });
  });

  it('ill-typed filter values and unknown properties are the SDK errors', async () => {
    const bad = await load(filter({ type: 'gt', field: 'salary', value: 'lots' }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      errorName: 'InvalidPropertyFilterValue',
      parameters: { property: 'salary', propertyFilter: 'gt', propertyFilterValue: 'lots' },
    });
    expect((await load(filter({ type: 'eq', field: 'skills', value: 'go' }))).json().errorName).toBe('InvalidPropertyFilterValue');
    expect((await load(filter({ type: 'startsWith', field: 'salary', value: '1' }))).json().errorName).toBe('InvalidPropertyFilterValue');
    expect((await load(filter({ type: 'eq', field: 'ghost', value: 1 }))).json()).toMatchObject({
      errorName: 'PropertiesNotFound',
      parameters: { objectType: 'Employee', properties: ['ghost'] },
    });
    expect((await load(base, { orderBy: { fields: [{ field: 'skills' }] } })).json().parameters).toEqual({ 'orderBy on a property of type': 'array' });
    expect((await load({ type: 'searchAround', objectSet: base, link: 'boss' })).json().errorName).toBe('LinkTypeNotFound');
    expect((await post('/api/v2/ontologies/acme/objectSets/loadObjects', [1])).statusCode).toBe(400);
  });

  it('a query version that is not the seeded one is QueryVersionNotFound', async () => {
    const res = await post('/api/v2/ontologies/acme/queries/greet/execute?version=9.9.9', { parameters: { name: 'a' } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ errorName: 'QueryVersionNotFound', parameters: { apiName: 'greet', version: '9.9.9' } });
    expect((await post('/api/v2/ontologies/acme/queries/greet/execute?version=1.2.0', { parameters: { name: 'Zoe' } })).json()).toEqual({ value: 'hello Zoe' });
  });

  it('objects changed by actions stay changed until reset, which returns them to the seed', async () => {
    await post('/api/v2/ontologies/acme/actions/fireEmployee/apply', { parameters: { employee: 1 } });
    await post('/api/v2/ontologies/acme/actions/hireEmployee/apply', { parameters: { employeeId: 9, fullName: 'New' } });
    await post('/api/v2/ontologies/acme/actions/assignMentor/apply', { parameters: { employee: 9, mentor: 2 } });
    expect((await get('/api/v2/ontologies/acme/objects/Employee/1')).statusCode).toBe(404);
    expect((await get('/api/v2/ontologies/acme/objects/Employee/9/links/mentors')).json().data.map((o: { __primaryKey: number }) => o.__primaryKey)).toEqual([
      2,
    ]);
    expect((await app.inject({ method: 'POST', url: '/_emulate/platform/reset' })).statusCode).toBe(200);
    headers = bearer(await mintToken(app, 'dev', ['api:ontologies-read'])); // reset forgets tokens too
    expect((await get('/api/v2/ontologies/acme/objects/Employee/1')).statusCode).toBe(200);
    expect((await get('/api/v2/ontologies/acme/objects/Employee/9')).statusCode).toBe(404);
    expect((await get('/api/v2/ontologies/acme/objects/Employee/2/links/mentees')).json().data.map((o: { __primaryKey: number }) => o.__primaryKey)).toEqual([
      3,
    ]);
  });

  it('an action whose edits cannot all apply changes nothing', async () => {
    // hireEmployee with an office that does not exist: the parameter is INVALID, nothing is created.
    const res = await post('/api/v2/ontologies/acme/actions/hireEmployee/apply', { parameters: { employeeId: 8, fullName: 'X', office: 'mars' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().validation).toMatchObject({ result: 'INVALID', parameters: { office: { result: 'INVALID', required: false } } });
    expect((await get('/api/v2/ontologies/acme/objects/Employee/8')).statusCode).toBe(404);
    const mode = await post('/api/v2/ontologies/acme/actions/fireEmployee/apply', { parameters: { employee: 1 }, options: { mode: 'ASYNC' } });
    expect(mode.json()).toMatchObject({ errorName: 'NotSupportedByEmulator', parameters: { 'options.mode': 'ASYNC' } });
  });
});

describe('aggregations over HTTP', () => {
  const aggregate = (body: Record<string, unknown>) => post('/api/v2/ontologies/acme/objectSets/aggregate', { objectSet: base, ...body });

  it('maxGroupCount keeps the largest groups; includeNullValues groups the absent as null; ordered by a date metric', async () => {
    const top = await aggregate({ aggregation: [{ type: 'count', name: 'count' }], groupBy: [{ type: 'exact', field: 'title', maxGroupCount: 1 }] });
    expect(top.json().data).toEqual([{ group: { title: 'Engineer' }, metrics: [{ name: 'count', value: 2 }] }]);
    const withNull = await aggregate({
      aggregation: [{ type: 'count', name: 'count' }],
      groupBy: [{ type: 'exact', field: 'officeId', includeNullValues: true }],
    });
    expect(withNull.json().data.map((d: { group: { officeId: unknown } }) => d.group.officeId)).toEqual(['nyc', 'ldn', null]);
    const latest = await aggregate({
      aggregation: [{ type: 'max', field: 'hiredOn', name: 'latest', direction: 'DESC' }],
      groupBy: [{ type: 'exact', field: 'title' }],
    });
    expect(latest.json().data.map((d: { group: { title: string } }) => d.group.title)).toEqual(['Intern', 'Analyst', 'Engineer', 'Director']);
    expect((await aggregate({ aggregation: [{ type: 'count' }], groupBy: [{ type: 'exact', field: 'title', maxGroupCount: 0 }] })).statusCode).toBe(400);
  });
});
