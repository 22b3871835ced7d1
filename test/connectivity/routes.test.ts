import { beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { bearer, buildTestApp, mintToken, platformError, type TestApp } from '../helpers/app.js';
import { BASE, READ, SECRET, SEED, WRITE, containsAnySecret, createRequest, withConfiguration } from './fixtures.js';

let t: TestApp;
let app: FastifyInstance;
let rw: Record<string, string>;
/** Every response body seen in a test, checked for secret values at the end. */
let bodies: string[];

beforeEach(async () => {
  t = await buildTestApp({ seed: SEED });
  app = t.app;
  rw = bearer(await mintToken(app, 'alice', [READ, WRITE]));
  bodies = [];
  return () => {
    expect(bodies.flatMap(containsAnySecret)).toEqual([]);
  };
});

async function call(method: 'GET' | 'POST', url: string, payload?: unknown, headers: Record<string, string> = rw) {
  const res = await app.inject({ method, url, headers, ...(payload !== undefined ? { payload: payload as object } : {}) });
  bodies.push(res.body);
  return res;
}

async function create(body: unknown = createRequest()) {
  const res = await call('POST', BASE, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { rid: string } & Record<string, unknown>;
}

const READ_FORM = {
  type: 'rest',
  domains: [
    {
      host: 'api.weather.example',
      port: 443,
      scheme: 'HTTPS',
      auth: { type: 'bearerToken', bearerToken: { type: 'asSecretName', value: 'domains[0].auth.bearerToken' } },
    },
    {
      host: 'keys.example',
      auth: { type: 'apiKey', location: { type: 'header', headerName: 'X-Api-Key' }, apiKey: { type: 'asSecretName', value: 'domains[1].auth.apiKey' } },
    },
    { host: 'basic.example', scheme: 'HTTPS', auth: { type: 'basic', username: 'svc', password: { type: 'asSecretName', value: 'domains[2].auth.password' } } },
    { host: 'oauth.example', auth: { type: 'oauth2' } },
    { host: 'open.example', scheme: 'HTTP' },
  ],
  additionalSecrets: { type: 'asSecretsNames', secretNames: ['alpha', 'zeta'] },
  oauth2ClientRid: 'ri.third-party-applications.main.application.x',
};

describe('POST /api/v2/connectivity/connections', () => {
  it('creates a REST connection and answers the Connection in read form, with secret names only', async () => {
    const res = await call('POST', `${BASE}?preview=true`, createRequest());
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json();
    expect(body.rid).toMatch(/^ri\.magritte\.\.source\.[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(body).toEqual({
      rid: body.rid,
      parentFolderRid: 'ri.compass.main.folder.apps',
      displayName: 'Weather API',
      exportSettings: { exportsEnabled: false, exportEnabledWithoutMarkingsValidation: false },
      worker: { type: 'foundryWorker', networkEgressPolicyRids: ['ri.resource-policy-manager.global.network-egress-policy.w'] },
      configuration: READ_FORM,
    });
  });

  it('stores the secret values server-side, under the names it shows', async () => {
    const { rid } = await create();
    const stored = await t.store.connections.byRid(rid);
    expect(stored!.secrets).toEqual({
      'domains[0].auth.bearerToken': SECRET.bearer,
      'domains[1].auth.apiKey': SECRET.apiKey,
      'domains[2].auth.password': SECRET.password,
      zeta: SECRET.extraA,
      alpha: SECRET.extraB,
    });
  });

  it('defaults the worker to the Foundry worker, and omits additionalSecrets when there are none', async () => {
    const body = createRequest({ worker: undefined, configuration: { type: 'rest', domains: [{ host: 'a.example' }] } });
    const created = await create(body);
    expect(created.worker).toEqual({ type: 'foundryWorker', networkEgressPolicyRids: [] });
    expect(created.configuration).toEqual({ type: 'rest', domains: [{ host: 'a.example' }] });
  });

  it('gives each connection its own rid', async () => {
    expect((await create()).rid).not.toBe((await create()).rid);
  });

  it.each([
    ['a missing field', { ...createRequest(), displayName: undefined }, 'InvalidArgument', { field: 'displayName' }],
    ['a mistyped field', createRequest({ parentFolderRid: 7 }), 'InvalidArgument', { field: 'parentFolderRid' }],
    ['an unknown field', createRequest({ colour: 'red' }), 'InvalidArgument', { field: 'colour' }],
    ['a blank display name', createRequest({ displayName: '  ' }), 'PropertyCannotBeBlank', { propertyName: 'displayName' }],
    ['the unknown worker', createRequest({ worker: { type: 'unknownWorker' } }), 'UnknownWorkerCannotBeUsedForCreatingOrUpdatingConnections', {}],
    ['a worker of no known type', createRequest({ worker: { type: 'cloud' } }), 'InvalidArgument', { field: 'worker.type' }],
    [
      'mistyped egress policies',
      createRequest({ worker: { type: 'foundryWorker', networkEgressPolicyRids: 'x' } }),
      'InvalidArgument',
      { field: 'worker.networkEgressPolicyRids' },
    ],
    ['a non-REST connection', createRequest({ configuration: { type: 's3', url: 's3://b' } }), 'ConnectionTypeNotSupported', { connectionType: 's3' }],
    ['a configuration without type', createRequest({ configuration: { domains: [] } }), 'InvalidArgument', { field: 'configuration.type' }],
    ['missing domains', withConfiguration((c) => delete c.domains), 'InvalidArgument', { field: 'configuration.domains' }],
    ['no domain', withConfiguration((c) => (c.domains = [])), 'PropertyCannotBeEmpty', { propertyName: 'configuration.domains' }],
    ['a mistyped port', withConfiguration((c) => (c.domains = [{ host: 'a', port: '443' }])), 'InvalidArgument', { field: 'configuration.domains[0].port' }],
    [
      'an out-of-range port',
      withConfiguration((c) => (c.domains = [{ host: 'a', port: 70000 }])),
      'InvalidArgument',
      { field: 'configuration.domains[0].port' },
    ],
    [
      'an unknown scheme',
      withConfiguration((c) => (c.domains = [{ host: 'a', scheme: 'ftp' }])),
      'InvalidArgument',
      { field: 'configuration.domains[0].scheme' },
    ],
    [
      'a host with a protocol',
      withConfiguration((c) => (c.domains = [{ host: 'https://a.example' }])),
      'HostNameCannotHaveProtocolOrPort',
      { hostName: 'https://a.example' },
    ],
    [
      'a host with a port',
      withConfiguration((c) => (c.domains = [{ host: 'a.example:8443' }])),
      'HostNameCannotHaveProtocolOrPort',
      { hostName: 'a.example:8443' },
    ],
    [
      'a host with credentials in it, not echoing them',
      withConfiguration((c) => (c.domains = [{ host: `https://svc:${SECRET.password}@a.example` }])),
      'HostNameCannotHaveProtocolOrPort',
      { hostName: 'https://a.example' },
    ],
    [
      'a host with a user name',
      withConfiguration((c) => (c.domains = [{ host: `svc:${SECRET.password}@a.example` }])),
      'HostNameCannotHaveProtocolOrPort',
      { hostName: 'a.example' },
    ],
    ['a blank host', withConfiguration((c) => (c.domains = [{ host: '' }])), 'PropertyCannotBeBlank', { propertyName: 'configuration.domains[0].host' }],
    [
      'auth over HTTP',
      withConfiguration(
        (c) => (c.domains = [{ host: 'a', scheme: 'HTTP', auth: { type: 'bearerToken', bearerToken: { type: 'asPlaintextValue', value: SECRET.bearer } } }]),
      ),
      'DomainMustUseHttpsWithAuthentication',
      {},
    ],
    [
      'oauth2 over HTTP',
      withConfiguration((c) => (c.domains = [{ host: 'a', scheme: 'HTTP', auth: { type: 'oauth2' } }])),
      'DomainMustUseHttpsWithAuthentication',
      {},
    ],
    [
      'an unknown auth type',
      withConfiguration((c) => (c.domains = [{ host: 'a', auth: { type: 'kerberos' } }])),
      'InvalidArgument',
      { field: 'configuration.domains[0].auth.type' },
    ],
    [
      'a secret given by name on create',
      withConfiguration((c) => (c.domains = [{ host: 'a', auth: { type: 'bearerToken', bearerToken: { type: 'asSecretName', value: 'x' } } }])),
      'EncryptedPropertyMustBeSpecifiedAsPlaintextValue',
      { propertyName: 'configuration.domains[0].auth.bearerToken' },
    ],
    [
      'a secret value that is not a string',
      withConfiguration((c) => (c.domains = [{ host: 'a', auth: { type: 'bearerToken', bearerToken: { type: 'asPlaintextValue', value: 12345 } } }])),
      'InvalidArgument',
      { field: 'configuration.domains[0].auth.bearerToken.value' },
    ],
    [
      'a missing secret value (an unset environment variable)',
      withConfiguration((c) => (c.domains = [{ host: 'a', auth: { type: 'bearerToken', bearerToken: { type: 'asPlaintextValue' } } }])),
      'InvalidArgument',
      { field: 'configuration.domains[0].auth.bearerToken.value' },
    ],
    [
      'an empty secret value',
      withConfiguration((c) => (c.domains = [{ host: 'a', auth: { type: 'basic', username: 'u', password: { type: 'asPlaintextValue', value: '' } } }])),
      'PropertyCannotBeBlank',
      { propertyName: 'configuration.domains[0].auth.password' },
    ],
    [
      'an API key without location',
      withConfiguration((c) => (c.domains = [{ host: 'a', auth: { type: 'apiKey', apiKey: { type: 'asPlaintextValue', value: SECRET.apiKey } } }])),
      'InvalidArgument',
      { field: 'configuration.domains[0].auth.location' },
    ],
    [
      'an API key location of no known type',
      withConfiguration(
        (c) =>
          (c.domains = [{ host: 'a', auth: { type: 'apiKey', location: { type: 'cookie' }, apiKey: { type: 'asPlaintextValue', value: SECRET.apiKey } } }]),
      ),
      'InvalidArgument',
      { field: 'configuration.domains[0].auth.location.type' },
    ],
    [
      'additional secrets given by name',
      withConfiguration((c) => (c.additionalSecrets = { type: 'asSecretsNames', secretNames: ['a'] })),
      'AdditionalSecretsMustBeSpecifiedAsPlaintextValueMap',
      {},
    ],
    [
      'an additional secret that is not a string',
      withConfiguration((c) => (c.additionalSecrets = { type: 'asSecretsWithPlaintextValues', secrets: { token: 42 } })),
      'InvalidArgument',
      { field: 'configuration.additionalSecrets.secrets.token' },
    ],
    [
      'an empty additional secret',
      withConfiguration((c) => (c.additionalSecrets = { type: 'asSecretsWithPlaintextValues', secrets: { token: '' } })),
      'PropertyCannotBeBlank',
      { propertyName: 'configuration.additionalSecrets.secrets.token' },
    ],
    [
      'an additional secret named like a domain secret',
      withConfiguration((c) => (c.additionalSecrets = { type: 'asSecretsWithPlaintextValues', secrets: { 'domains[0].auth.bearerToken': SECRET.extraA } })),
      'InvalidArgument',
      { field: 'configuration.additionalSecrets.secrets["domains[0].auth.bearerToken"]' },
    ],
  ])('rejects %s with 400 %s naming the field', async (_, body, errorName, parameters) => {
    const res = await call('POST', BASE, body);
    expect(res.statusCode, res.body).toBe(400);
    const err = platformError(res.json());
    expect(err).toMatchObject({ errorCode: 'INVALID_ARGUMENT', errorName });
    if (errorName === 'InvalidArgument') expect(err.parameters).toMatchObject(parameters);
    else expect(err.parameters).toEqual(parameters);
    expect(await t.store.connections.count()).toBe(1);
  });

  it.each([
    ['malformed JSON', '{"displayName": ', 'application/json', 400, 'INVALID_ARGUMENT'],
    ['an empty JSON body', '', 'application/json', 400, 'INVALID_ARGUMENT'],
    ['null', 'null', 'application/json', 400, 'INVALID_ARGUMENT'],
    ['an array', '[]', 'application/json', 400, 'INVALID_ARGUMENT'],
    ['a wrong content type', 'displayName=x', 'application/x-www-form-urlencoded', 400, 'INVALID_ARGUMENT'],
    ['text', JSON.stringify(createRequest()), 'text/plain', 400, 'INVALID_ARGUMENT'],
    ['an oversize body', JSON.stringify(createRequest({ displayName: 'x'.repeat(1024 * 1024 + 1) })), 'application/json', 413, 'REQUEST_ENTITY_TOO_LARGE'],
  ])('answers %s with %i in the platform envelope', async (_, payload, contentType, status, errorCode) => {
    const res = await call('POST', BASE, payload, { ...rw, 'content-type': contentType });
    expect(res.statusCode).toBe(status);
    expect(platformError(res.json()).errorCode).toBe(errorCode);
  });
});

describe('GET /api/v2/connectivity/connections/{rid}', () => {
  it('returns what create returned', async () => {
    const created = await create();
    const res = await call('GET', `${BASE}/${created.rid}`, undefined, bearer(await mintToken(app, 'alice', [READ])));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(created);
  });

  it('serves seeded connections: domains as the REST configuration, the Foundry worker, no secrets', async () => {
    const res = await call('GET', `${BASE}/ri.magritte..source.seeded?preview=true`);
    expect(res.json()).toEqual({
      rid: 'ri.magritte..source.seeded',
      parentFolderRid: 'ri.compass.main.folder.seeded',
      displayName: 'Seeded API',
      exportSettings: { exportsEnabled: false, exportEnabledWithoutMarkingsValidation: false },
      worker: { type: 'foundryWorker', networkEgressPolicyRids: [] },
      configuration: { type: 'rest', domains: [{ host: 'api.seeded.example', port: 443, scheme: 'HTTPS' }, { host: 'plain.example' }] },
    });
  });

  it('answers an unknown rid with 404 ConnectionNotFound', async () => {
    const res = await call('GET', `${BASE}/ri.magritte..source.nope`);
    expect(res.statusCode).toBe(404);
    expect(platformError(res.json())).toMatchObject({
      errorCode: 'NOT_FOUND',
      errorName: 'ConnectionNotFound',
      errorDescription: 'The given Connection could not be found.',
      parameters: { connectionRid: 'ri.magritte..source.nope' },
    });
  });

  it('rejects a preview value that is not a boolean', async () => {
    const res = await call('GET', `${BASE}/ri.magritte..source.seeded?preview=yes`);
    expect(res.statusCode).toBe(400);
    expect(platformError(res.json()).parameters).toMatchObject({ field: 'preview' });
  });
});

describe('GET /api/v2/connectivity/connections/{rid}/getConfiguration', () => {
  it('returns the configuration with secret names only, additional ones sorted', async () => {
    const { rid } = await create();
    const res = await call('GET', `${BASE}/${rid}/getConfiguration?preview=true`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(READ_FORM);
  });

  it('answers an unknown rid with 404 ConnectionNotFound', async () => {
    const res = await call('GET', `${BASE}/ri.x/getConfiguration`);
    expect(res.statusCode).toBe(404);
    expect(platformError(res.json())).toMatchObject({ errorName: 'ConnectionNotFound', parameters: { connectionRid: 'ri.x' } });
  });
});

describe('POST /api/v2/connectivity/connections/{rid}/updateSecrets', () => {
  it('merges: named secrets replaced, others kept, new names added; 204 with no body', async () => {
    const { rid } = await create();
    const res = await call('POST', `${BASE}/${rid}/updateSecrets`, { secrets: { zeta: SECRET.rotated, beta: SECRET.added } });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(res.headers['content-type']).toBeUndefined();
    const stored = await t.store.connections.byRid(rid);
    expect(stored!.secrets).toMatchObject({ zeta: SECRET.rotated, alpha: SECRET.extraB, beta: SECRET.added, 'domains[0].auth.bearerToken': SECRET.bearer });
    const config = (await call('GET', `${BASE}/${rid}/getConfiguration`)).json();
    expect(config.additionalSecrets).toEqual({ type: 'asSecretsNames', secretNames: ['alpha', 'beta', 'zeta'] });
  });

  it('replaces a domain auth secret by the name getConfiguration shows', async () => {
    const { rid } = await create();
    expect((await call('POST', `${BASE}/${rid}/updateSecrets`, { secrets: { 'domains[0].auth.bearerToken': SECRET.rotated } })).statusCode).toBe(204);
    expect((await t.store.connections.byRid(rid))!.secrets['domains[0].auth.bearerToken']).toBe(SECRET.rotated);
    expect((await call('GET', `${BASE}/${rid}/getConfiguration`)).json()).toEqual(READ_FORM);
  });

  it('adds the first additional secrets to a seeded connection', async () => {
    await call('POST', `${BASE}/ri.magritte..source.seeded/updateSecrets?preview=true`, { secrets: { token: SECRET.added } });
    const config = (await call('GET', `${BASE}/ri.magritte..source.seeded/getConfiguration`)).json();
    expect(config.additionalSecrets).toEqual({ type: 'asSecretsNames', secretNames: ['token'] });
  });

  it('accepts an empty map as a no-op', async () => {
    const res = await call('POST', `${BASE}/ri.magritte..source.seeded/updateSecrets`, { secrets: {} });
    expect(res.statusCode).toBe(204);
  });

  it('answers an unknown rid with 404 ConnectionNotFound', async () => {
    const res = await call('POST', `${BASE}/ri.x/updateSecrets`, { secrets: { a: SECRET.added } });
    expect(res.statusCode).toBe(404);
    expect(platformError(res.json())).toMatchObject({ errorName: 'ConnectionNotFound', parameters: { connectionRid: 'ri.x' } });
  });

  it.each([
    ['a number value', { secrets: { token: 5, other: SECRET.added } }, 'InvalidArgument', { field: 'secrets.token' }],
    ['an object value', { secrets: { token: { value: SECRET.added } } }, 'InvalidArgument', { field: 'secrets.token' }],
    ['a null value', { secrets: { token: null } }, 'InvalidArgument', { field: 'secrets.token' }],
    ['secrets as a list', { secrets: [SECRET.added] }, 'InvalidArgument', { field: 'secrets' }],
    ['missing secrets', {}, 'InvalidArgument', { field: 'secrets' }],
    ['the create shape by mistake', { type: 'asSecretsWithPlaintextValues', secrets: { a: SECRET.added } }, 'InvalidArgument', { field: 'type' }],
    ['an empty value', { secrets: { token: '' } }, 'PropertyCannotBeBlank', { propertyName: 'secrets.token' }],
    ['a blank name', { secrets: { ' ': SECRET.added } }, 'PropertyCannotBeBlank', { propertyName: 'secrets' }],
  ])('rejects %s with 400 naming the field, changing nothing', async (_, body, errorName, parameters) => {
    const res = await call('POST', `${BASE}/ri.magritte..source.seeded/updateSecrets`, body);
    expect(res.statusCode, res.body).toBe(400);
    const err = platformError(res.json());
    expect(err.errorName).toBe(errorName);
    expect(err.parameters).toMatchObject(parameters);
    expect((await t.store.connections.byRid('ri.magritte..source.seeded'))!.secrets).toEqual({});
  });

  it.each([
    ['malformed JSON', `{"secrets": {"a": "${SECRET.added}"`, 'application/json', 400],
    ['an empty JSON body', '', 'application/json', 400],
    ['null', 'null', 'application/json', 400],
    ['an array', '[]', 'application/json', 400],
    ['a wrong content type', `secrets=${SECRET.added}`, 'application/x-www-form-urlencoded', 400],
    ['an oversize body', JSON.stringify({ secrets: { a: 'x'.repeat(1024 * 1024 + 1) } }), 'application/json', 413],
  ])('answers %s with %i in the platform envelope', async (_, payload, contentType, status) => {
    const res = await call('POST', `${BASE}/ri.magritte..source.seeded/updateSecrets`, payload, { ...rw, 'content-type': contentType });
    expect(res.statusCode).toBe(status);
    platformError(res.json());
  });
});

describe('connectivity scopes', () => {
  const seeded = 'ri.magritte..source.seeded';
  const routes = [
    { name: 'create', method: 'POST', url: BASE, scope: WRITE, payload: createRequest(), errorName: 'CreateConnectionPermissionDenied', parameters: {} },
    { name: 'get', method: 'GET', url: `${BASE}/${seeded}`, scope: READ, errorName: 'ApiUsageDenied', parameters: { missingScope: READ } },
    {
      name: 'getConfiguration',
      method: 'GET',
      url: `${BASE}/${seeded}/getConfiguration`,
      scope: READ,
      errorName: 'GetConfigurationPermissionDenied',
      parameters: { connectionRid: seeded },
    },
    {
      name: 'updateSecrets',
      method: 'POST',
      url: `${BASE}/${seeded}/updateSecrets`,
      scope: WRITE,
      payload: { secrets: { a: SECRET.added } },
      errorName: 'UpdateSecretsForConnectionPermissionDenied',
      parameters: { connectionRid: seeded },
    },
  ] as const;

  it.each(routes)('$name: 403 $errorName without its scope, even with the other one', async (route) => {
    const other = route.scope === READ ? WRITE : READ;
    for (const scopes of [[], [other], ['api:ontologies-read', 'api:admin-read']]) {
      const res = await call(route.method, route.url, 'payload' in route ? route.payload : undefined, bearer(await mintToken(app, 'alice', scopes)));
      expect(res.statusCode).toBe(403);
      expect(platformError(res.json())).toMatchObject({ errorCode: 'PERMISSION_DENIED', errorName: route.errorName, parameters: route.parameters });
    }
    expect((await t.store.connections.byRid(seeded))!.secrets).toEqual({});
    expect(await t.store.connections.count()).toBe(1);
  });

  it.each(routes)('$name: 401 without a token, 200 or 204 with exactly its scope', async (route) => {
    const payload = 'payload' in route ? route.payload : undefined;
    const anonymous = await call(route.method, route.url, payload, {});
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ message: 'Requires authentication' });
    const ok = await call(route.method, route.url, payload, bearer(await mintToken(app, 'alice', [route.scope])));
    expect([200, 204]).toContain(ok.statusCode);
  });

  it('checks the scope before the body: a forbidden malformed request is 403, not 400', async () => {
    const res = await call('POST', BASE, '{bad', { ...bearer(await mintToken(app, 'alice', [READ])), 'content-type': 'application/json' });
    expect(res.statusCode).toBe(403);
  });
});
