// The small wire changes real Python clients need (docs/contracts.md §10) and path aliases (docs/contracts.md §11), in process.
// The real Python platform SDK goes through the same paths in test/clients/python/test_platform_sdk.py.
import { describe, expect, it } from 'vitest';
import { applyTestSeed, validateTestSeed } from '../helpers/seed.js';
import { bearer, buildTestApp, mintToken, platformError } from '../helpers/app.js';
import { TOKEN, basic, expectOAuthError, postForm } from '../oauth/flow.js';
import { pathAliasProblems, pathAliasRewriter } from '../../src/http/path-aliases.js';
import { PathPolicies } from '../../src/http/path-policy.js';
import { SERVICES, servicePartsOf } from '../../src/services/index.js';

/** The roots the services' path policy declares: what an alias may lead into and may not cover. */
const ROOTS = new PathPolicies(SERVICES.flatMap((s) => s.policy ?? [])).roots();
import { SeedError } from '../../src/seed/load.js';
import { buildApp } from '../../src/app.js';

import { resolveSettings } from '../../src/settings.js';
import { createMemoryStore } from '../../src/store/memory-store.js';
import { ManualClock } from '../../src/clock.js';
import { createRequest } from '../connectivity/fixtures.js';

const SEED = {
  platform: {
    users: [{ username: 'alice' }],
    oauth_clients: [
      { client_id: 'svc', client_secret: 'svc-secret' },
      { client_id: 'limited', client_secret: 'l', allowed_scopes: ['api:admin-read'] },
    ],
    ontologies: [{ api_name: 'sales', display_name: 'Sales', queries: [{ api_name: 'answer', result: { value: 42 } }] }],
    path_aliases: { '/multipass/api/': '/idp/api/', '/gateway/v2/': '/api/v2/' },
  },
};
const ALL = ['api:admin-read', 'api:ontologies-read', 'api:connectivity-connection-read', 'api:connectivity-connection-write'];

describe('preview in any letter case', () => {
  it('is accepted on admin, connectivity and ontology routes; a non-boolean is 400 naming the field', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const token = await mintToken(app, 'alice', ALL);
    const paths = ['/api/v2/admin/users/getCurrent', '/api/v2/admin/enrollments/getCurrent', '/api/v2/ontologies', '/api/v2/ontologies/sales'];
    for (const path of paths) {
      for (const value of ['true', 'True', 'TRUE', 'false', 'False']) {
        const res = await app.inject({ url: `${path}?preview=${value}`, headers: bearer(token) });
        expect({ path, value, status: res.statusCode }).toEqual({ path, value, status: 200 });
      }
      const bad = await app.inject({ url: `${path}?preview=yes`, headers: bearer(token) });
      expect(bad.statusCode).toBe(400);
      expect(platformError(bad.json()).parameters).toMatchObject({ field: 'preview' });
    }
    const created = await app.inject({
      method: 'POST',
      url: '/api/v2/connectivity/connections?preview=True',
      headers: bearer(token),
      payload: createRequest(),
    });
    expect(created.statusCode).toBe(200);
    const executed = await app.inject({
      method: 'POST',
      url: '/api/v2/ontologies/sales/queries/answer/execute?preview=TRUE',
      headers: bearer(token),
      payload: {},
    });
    expect(executed.json()).toEqual({ value: 42 });
  });
});

describe('connection create: runtimePlatform in place of worker', () => {
  it('takes runtimePlatform as the worker, and refuses both at once or an unknown worker under the new name', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const token = await mintToken(app, 'alice', ALL);
    const { worker, ...withoutWorker } = createRequest();
    const post = (body: unknown) => app.inject({ method: 'POST', url: '/api/v2/connectivity/connections', headers: bearer(token), payload: body as object });

    const res = await post({ ...withoutWorker, runtimePlatform: worker });
    expect(res.statusCode).toBe(200);
    expect(res.json().worker).toEqual(worker);

    const both = await post({ ...withoutWorker, worker, runtimePlatform: worker });
    expect(both.statusCode).toBe(400);
    expect(platformError(both.json()).parameters).toEqual({ field: 'runtimePlatform' });

    const unknown = await post({ ...withoutWorker, runtimePlatform: { type: 'unknownWorker' } });
    expect(platformError(unknown.json()).errorName).toBe('UnknownWorkerCannotBeUsedForCreatingOrUpdatingConnections');
    const mistyped = await post({ ...withoutWorker, runtimePlatform: { type: 'nope' } });
    expect(platformError(mistyped.json()).parameters).toEqual({ field: 'runtimePlatform.type' });
  });
});

describe('client credentials with offline_access', () => {
  it('grants offline_access as asked, beside the other scopes, without a refresh token', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const res = await postForm(app, TOKEN, { grant_type: 'client_credentials', scope: 'offline_access api:admin-read' }, basic('svc', 'svc-secret'));
    expect(res.statusCode).toBe(200);
    expect(res.json().scope).toBe('offline_access api:admin-read');
    expect(res.json()).not.toHaveProperty('refresh_token');
  });

  it('grants it even when the client allowed_scopes does not list it; other scopes are still checked', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const ok = await postForm(app, TOKEN, { grant_type: 'client_credentials', scope: 'api:admin-read offline_access' }, basic('limited', 'l'));
    expect(ok.statusCode).toBe(200);
    expect(ok.json().scope).toBe('api:admin-read offline_access');
    expect(ok.json()).not.toHaveProperty('refresh_token');
    const widened = await postForm(app, TOKEN, { grant_type: 'client_credentials', scope: 'api:ontologies-read offline_access' }, basic('limited', 'l'));
    expect(expectOAuthError(widened, 400, 'invalid_scope')).toContain('api:ontologies-read');
  });
});

describe('repeated form fields', () => {
  const form = (body: string, headers: Record<string, string> = {}) => ({
    method: 'POST' as const,
    url: TOKEN,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: body,
  });

  it('joins a repeated scope with spaces, in order', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const res = await app.inject(form('grant_type=client_credentials&scope=api:admin-read&scope=api:ontologies-read&scope=', basic('svc', 'svc-secret')));
    expect(res.statusCode).toBe(200);
    expect(res.json().scope).toBe('api:admin-read api:ontologies-read');
  });

  it('refuses any other repeated field with invalid_request naming it, even when a value is empty', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const twice = await app.inject(form('grant_type=client_credentials&grant_type=client_credentials', basic('svc', 'svc-secret')));
    expect(expectOAuthError(twice, 400, 'invalid_request')).toContain('grant_type');
    const emptyFirst = await app.inject(form('client_id=&client_id=svc&client_secret=svc-secret&grant_type=client_credentials'));
    expect(expectOAuthError(emptyFirst, 400, 'invalid_request')).toContain('client_id');
  });
});

describe('path aliases', () => {
  it('serves an aliased path exactly as its target: the token endpoint, its envelope, and a platform route', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const viaAlias = await postForm(
      app,
      '/multipass/api/oauth2/token',
      { grant_type: 'client_credentials', scope: 'api:admin-read' },
      basic('svc', 'svc-secret'),
    );
    expect(viaAlias.statusCode).toBe(200);
    const token = viaAlias.json().access_token as string;
    const me = await app.inject({ url: '/gateway/v2/admin/users/getCurrent?preview=true', headers: bearer(token) });
    expect(me.statusCode).toBe(200);
    expect(me.json().username).toBe('svc');
    // Errors come in the target's envelope.
    expectOAuthError(await postForm(app, '/multipass/api/oauth2/token', { grant_type: 'nope' }, basic('svc', 'svc-secret')), 400, 'unsupported_grant_type');
    const unauthenticated = await app.inject({ url: '/gateway/v2/admin/users/getCurrent' });
    expect(unauthenticated.statusCode).toBe(401);
    expect(unauthenticated.json()).toEqual({ message: 'Requires authentication' });
    // What is not under an alias is not rewritten.
    expect((await app.inject({ url: '/multipass/other' })).statusCode).toBe(404);
  });

  it('keeps the request as it came in originalUrl', async () => {
    const seed = validateTestSeed(SEED);
    const store = createMemoryStore(servicePartsOf(SERVICES));
    await applyTestSeed(seed, store, new ManualClock());
    const app = await buildApp({ settings: resolveSettings(seed, {}, {}), store, clock: new ManualClock(), seed });
    let seen: { url: string; originalUrl: string } | undefined;
    app.addHook('onResponse', async (request) => void (seen = { url: request.url, originalUrl: request.originalUrl }));
    await postForm(app, '/multipass/api/oauth2/token?x=1', { grant_type: 'client_credentials' }, basic('svc', 'svc-secret'));
    expect(seen).toEqual({ url: '/idp/api/oauth2/token?x=1', originalUrl: '/multipass/api/oauth2/token?x=1' });
  }, 10_000);

  it('validates the configuration: slashes, a target of ours, no prefix over our own', () => {
    expect(ROOTS).toEqual(['/.well-known/', '/_emulate/', '/analytics-backend-multiplexer/', '/api/', '/idp/', '/stream-proxy/']);
    expect(pathAliasProblems({ '/multipass/api/': '/idp/api/' }, ROOTS)).toEqual([]);
    expect(pathAliasProblems({ 'multipass/api': '/idp/api/' }, ROOTS)[0]).toMatch(/prefix must start and end with "\/"/);
    expect(pathAliasProblems({ '/multipass/api/': '/idp/api' }, ROOTS)[0]).toMatch(/target "\/idp\/api" must start and end/);
    expect(pathAliasProblems({ '/multipass/api/': '/elsewhere/' }, ROOTS)[0]).toMatch(/not under one of the service's prefixes/);
    expect(pathAliasProblems({ '/api/': '/idp/api/' }, ROOTS)[0]).toMatch(/would hide routes of the service itself/);
    expect(pathAliasProblems({ '/': '/idp/api/' }, ROOTS)[0]).toMatch(/prefix must start and end/);
    expect(() => pathAliasRewriter({ '/x/': '/nowhere/' }, ROOTS)).toThrow(SeedError);
    expect(pathAliasRewriter({}, ROOTS)).toBeUndefined();
  });

  it('refuses an invalid configuration at start-up', async () => {
    await expect(buildTestApp({ seed: { platform: { path_aliases: { '/api/': '/idp/api/' } } } })).rejects.toThrow(/path_aliases/);
  });
});
