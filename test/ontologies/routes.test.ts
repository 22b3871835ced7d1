import { beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { bearer, buildTestApp, mintToken, platformError } from '../helpers/app.js';

const SEED = `
platform:
  users: [{ username: alice }]
  ontologies:
    - api_name: ontology-sales
      rid: ri.ontology.main.ontology.sales
      display_name: Sales
      description: Orders and customers
      queries:
        - { api_name: topCustomers, result: { value: [{ name: Acme, total: 1200 }] } }
        - { api_name: greeting, result: hello }
        - { api_name: nothing, result: null }
        - { api_name: answer, result: 42 }
    - api_name: ontology-empty
      display_name: Empty
`;

const READ = 'api:ontologies-read';
let app: FastifyInstance;
let headers: Record<string, string>;
let emptyRid: string;

beforeEach(async () => {
  ({ app } = await buildTestApp({ seed: SEED }));
  headers = bearer(await mintToken(app, 'alice', [READ]));
  emptyRid = (await app.inject({ url: '/api/v2/ontologies', headers })).json().data[1].rid;
});

const execute = (ontology: string, query: string, payload?: unknown, extra: Record<string, string> = {}) =>
  app.inject({
    method: 'POST',
    url: `/api/v2/ontologies/${ontology}/queries/${query}/execute`,
    headers: { ...headers, ...extra },
    ...(payload !== undefined ? { payload: payload as string } : {}),
  });

describe('GET /api/v2/ontologies', () => {
  it('lists every ontology in seed order as OntologyV2, description "" when not seeded', async () => {
    const res = await app.inject({ url: '/api/v2/ontologies', headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({
      data: [
        { apiName: 'ontology-sales', displayName: 'Sales', description: 'Orders and customers', rid: 'ri.ontology.main.ontology.sales' },
        { apiName: 'ontology-empty', displayName: 'Empty', description: '', rid: emptyRid },
      ],
    });
    expect(emptyRid).toMatch(/^ri\.ontology\.main\.ontology\.[0-9a-f-]{36}$/);
  });

  it('lists nothing when nothing is seeded', async () => {
    const bare = (await buildTestApp()).app;
    const res = await bare.inject({ url: '/api/v2/ontologies', headers: bearer(await mintToken(bare, 'admin', [READ])) });
    expect(res.json()).toEqual({ data: [] });
  });
});

describe('GET /api/v2/ontologies/{ontology}', () => {
  it('returns one ontology by apiName or by rid', async () => {
    const expected = { apiName: 'ontology-sales', displayName: 'Sales', description: 'Orders and customers', rid: 'ri.ontology.main.ontology.sales' };
    for (const id of ['ontology-sales', 'ri.ontology.main.ontology.sales']) {
      const res = await app.inject({ url: `/api/v2/ontologies/${id}?preview=true`, headers });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(expected);
    }
  });

  it('answers an unknown one with 404 OntologyNotFound naming it in the form used', async () => {
    const byName = await app.inject({ url: '/api/v2/ontologies/nope', headers });
    expect(byName.statusCode).toBe(404);
    expect(platformError(byName.json())).toEqual(
      expect.objectContaining({
        errorCode: 'NOT_FOUND',
        errorName: 'OntologyNotFound',
        errorDescription: 'The requested Ontology is not found, or the client token does not have access to it.',
        parameters: { apiName: 'nope' },
      }),
    );
    const byRid = await app.inject({ url: '/api/v2/ontologies/ri.ontology.main.ontology.nope', headers });
    expect(platformError(byRid.json()).parameters).toEqual({ ontologyRid: 'ri.ontology.main.ontology.nope' });
  });
});

describe('POST /api/v2/ontologies/{ontology}/queries/{query}/execute', () => {
  it('returns the seeded result as it is, by apiName or rid', async () => {
    for (const id of ['ontology-sales', 'ri.ontology.main.ontology.sales']) {
      const res = await execute(id, 'topCustomers', { parameters: { limit: 1 } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({ value: [{ name: 'Acme', total: 1200 }] });
    }
  });

  it.each([
    ['greeting', '"hello"'],
    ['nothing', 'null'],
    ['answer', '42'],
  ])('sends a scalar result (%s) as JSON, not text', async (query, body) => {
    const res = await execute('ontology-sales', query, { parameters: {} });
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toBe(body);
  });

  it('accepts no body, an empty JSON body, and a body without parameters', async () => {
    expect((await execute('ontology-sales', 'answer')).body).toBe('42');
    expect((await execute('ontology-sales', 'answer', '', { 'content-type': 'application/json' })).body).toBe('42');
    expect((await execute('ontology-sales', 'answer', {})).body).toBe('42');
  });

  it('answers an unknown query with 404 QueryNotFound, an unknown ontology first with OntologyNotFound', async () => {
    const query = await execute('ontology-sales', 'missing', { parameters: {} });
    expect(query.statusCode).toBe(404);
    expect(platformError(query.json())).toMatchObject({
      errorName: 'QueryNotFound',
      errorDescription: 'The query is not found, or the user does not have access to it.',
      parameters: { query: 'missing' },
    });
    const ontology = await execute('ontology-nope', 'missing', { parameters: {} });
    expect(platformError(ontology.json())).toEqual(expect.objectContaining({ errorName: 'OntologyNotFound', parameters: { apiName: 'ontology-nope' } }));
    const byRid = await execute('ri.ontology.main.ontology.nope', 'missing', { parameters: {} });
    expect(byRid.statusCode).toBe(404);
    expect(platformError(byRid.json())).toEqual(
      expect.objectContaining({ errorName: 'OntologyNotFound', parameters: { ontologyRid: 'ri.ontology.main.ontology.nope' } }),
    );
    const emptyOntology = await execute(emptyRid, 'topCustomers', { parameters: {} });
    expect(platformError(emptyOntology.json())).toMatchObject({ errorName: 'QueryNotFound' });
  });

  it.each([
    ['malformed JSON', '{"parameters":', 'application/json', 400, 'INVALID_ARGUMENT', {}],
    ['null', 'null', 'application/json', 400, 'INVALID_ARGUMENT', { field: 'body' }],
    ['an array', '[]', 'application/json', 400, 'INVALID_ARGUMENT', { field: 'body' }],
    ['parameters that are not an object', '{"parameters": [1]}', 'application/json', 400, 'INVALID_ARGUMENT', { field: 'parameters' }],
    ['an unknown field', '{"parameters": {}, "params": {}}', 'application/json', 400, 'INVALID_ARGUMENT', { field: 'params' }],
    ['a wrong content type', 'parameters=1', 'application/x-www-form-urlencoded', 400, 'INVALID_ARGUMENT', {}],
    ['an oversize body', JSON.stringify({ parameters: { x: 'x'.repeat(1024 * 1024 + 1) } }), 'application/json', 413, 'REQUEST_ENTITY_TOO_LARGE', {}],
  ])('answers %s with %i in the platform envelope', async (_, payload, contentType, status, errorCode, parameters) => {
    const res = await execute('ontology-sales', 'answer', payload, { 'content-type': contentType });
    expect(res.statusCode).toBe(status);
    const err = platformError(res.json());
    expect(err.errorCode).toBe(errorCode);
    expect(err.parameters).toMatchObject(parameters);
  });
});

describe('ontology scopes', () => {
  const routes = [
    { method: 'GET', url: '/api/v2/ontologies' },
    { method: 'GET', url: '/api/v2/ontologies/ontology-sales' },
    { method: 'POST', url: '/api/v2/ontologies/ontology-sales/queries/answer/execute', payload: { parameters: {} } },
  ] as const;

  it.each(routes)('$method $url: 403 ApiUsageDenied without api:ontologies-read, 401 without a token', async (route) => {
    const payload = 'payload' in route ? { payload: route.payload } : {};
    for (const scopes of [[], ['api:ontologies-write', 'api:connectivity-connection-read']]) {
      const res = await app.inject({ method: route.method, url: route.url, headers: bearer(await mintToken(app, 'alice', scopes)), ...payload });
      expect(res.statusCode).toBe(403);
      expect(platformError(res.json())).toMatchObject({ errorCode: 'PERMISSION_DENIED', errorName: 'ApiUsageDenied', parameters: { missingScope: READ } });
    }
    const anonymous = await app.inject({ method: route.method, url: route.url, ...payload });
    expect(anonymous.statusCode).toBe(401);
  });
});
