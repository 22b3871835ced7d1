// The contract of every repository without a file of its own, for every store: the memory store (the
// reference) in the first pass, PostgreSQL in the second (test/helpers/store.ts). Atomic steps are checked for
// their outcome when repeated, which is what a second instance racing for them would see.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AccessTokenRecord, RefreshTokenRecord, Store } from '../../src/store/store.js';
import { TEST_STORE, openTestStore } from '../helpers/store.js';

const noTypes = { queryTypes: new Map(), objectTypes: new Map(), actionTypes: new Map() };

let store: Store;
beforeEach(async () => {
  store = await openTestStore();
});
afterEach(() => store.close());

const kind = TEST_STORE ? 'postgres' : 'memory';
const access = (token: string, extra: Partial<AccessTokenRecord> = {}): AccessTokenRecord => ({
  token,
  principalId: 'u',
  clientId: 'c',
  scopes: ['a', 'b'],
  expiresAt: 100,
  ...extra,
});
const refresh = (token: string, extra: Partial<RefreshTokenRecord> = {}): RefreshTokenRecord => ({
  token,
  clientId: 'c',
  userId: 'u',
  scopes: ['offline_access'],
  grantId: 'g',
  expiresAt: 100,
  ...extra,
});

describe(`tokens (${kind} store)`, () => {
  it('finds, revokes by token and by grant, sweeps what expired, and counts', async () => {
    await store.tokens.insertAccess(access('t1', { grantId: 'g1', expiresAt: 10 }));
    await store.tokens.insertAccess(access('t2', { grantId: 'g1', expiresAt: 20 }));
    await store.tokens.insertAccess(access('t3', { expiresAt: 30, clientId: null }));
    expect(await store.tokens.findAccess('t3')).toEqual(access('t3', { expiresAt: 30, clientId: null }));
    expect(await store.tokens.findAccess('nope')).toBeUndefined();
    expect(await store.tokens.findAccess('t\u0000x')).toBeUndefined(); // a form field may carry U+0000
    expect(await store.tokens.revokeGrant('g1')).toBe(2);
    expect(await store.tokens.revokeAccess('t1')).toBe(false);
    expect(await store.tokens.countAccess()).toBe(1);
    expect(await store.tokens.sweepExpired(29)).toBe(0);
    expect(await store.tokens.sweepExpired(30)).toBe(1);
    expect(await store.tokens.countAccess()).toBe(0);
  });
});

describe(`tokens with their principal (${kind} store)`, () => {
  it('finds a token and its user in one step, a deactivation seen at once, a missing user as undefined', async () => {
    const find = store.tokens.findAccessWithPrincipal.bind(store.tokens);
    const alice = {
      id: 'u',
      username: 'alice',
      displayName: 'Alice',
      realm: 'r',
      organizationRid: 'o',
      principalType: 'human' as const,
      active: true,
      attributes: {},
    };
    await store.users.insert(alice);
    await store.tokens.insertAccess(access('t1'));
    await store.tokens.insertAccess(access('t2', { principalId: 'gone' }));
    expect(await find('t1')).toEqual({ token: access('t1'), principal: await store.users.byId('u') });
    await store.users.setActive('alice', false);
    expect((await find('t1'))?.principal?.active).toBe(false);
    expect(await find('t2')).toEqual({ token: access('t2', { principalId: 'gone' }), principal: undefined });
    expect(await find('none')).toBeUndefined();
    expect(await find('t\u0000x')).toBeUndefined();
  });
});

describe(`client_credentials in one step (${kind} store)`, () => {
  const client = { clientId: 'svc', clientSecret: 's', name: 'svc', redirectUris: [], grantTypes: ['client_credentials' as const], allowedScopes: [] };
  const svcUser = {
    id: 'su',
    username: 'svc-user',
    displayName: 'Svc',
    realm: 'r',
    organizationRid: 'o',
    principalType: 'service' as const,
    active: true,
    oauthClientId: 'svc',
    attributes: {},
  };
  const unnamed = (token: string) => ({ token, clientId: 'svc', scopes: ['a'], expiresAt: 100 });

  it('stores a token for the seeded service user; nothing without a principal, for a deactivated one, or past the cap', async () => {
    await store.clients.insert(client);
    expect(await store.tokens.insertAccessForClientPrincipal('svc', unnamed('t0'))).toBeUndefined();
    await store.users.insert(svcUser);
    expect(await store.tokens.insertAccessForClientPrincipal('svc', unnamed('t1'))).toBe('svc-user'); // the username the journal names
    expect((await store.tokens.findAccess('t1'))?.principalId).toBe('su');
    expect(await store.tokens.insertAccessForClientPrincipal('svc', unnamed('t2'), 1)).toBeUndefined();
    await store.users.setActive('svc-user', false);
    expect(await store.tokens.insertAccessForClientPrincipal('svc', unnamed('t3'))).toBeUndefined();
    expect(await store.tokens.countAccess()).toBe(1);
  });

  it('with asOf, stores only while the stored client is the one remembered', async () => {
    await store.clients.insert(client);
    await store.users.insert(svcUser);
    await store.clients.byId('svc'); // read once, so that PostgreSQL remembers it
    const remembered = store.clients.remembered('svc');
    expect(remembered).toEqual(client);
    expect(await store.tokens.insertAccessForClientPrincipal('svc', unnamed('t1'), undefined, remembered)).toBe('svc-user');
    await store.clients.upsert({ ...client, clientSecret: 'rotated' });
    expect(await store.tokens.insertAccessForClientPrincipal('svc', unnamed('t2'), undefined, remembered)).toBeUndefined();
    expect(await store.tokens.findAccess('t2')).toBeUndefined();
  });
});

describe(`module polls (${kind} store)`, () => {
  it('keeps the latest poll of a known runtime; a clear forgets them', async () => {
    await store.computeModules.notePoll('rt', 5);
    expect(await store.computeModules.lastPoll('rt')).toBeUndefined();
    await store.computeModules.insertRuntime({ runtimeId: 'rt', moduleAuthToken: 'token-0123456789' });
    expect(await store.computeModules.lastPoll('rt')).toBeUndefined();
    await store.computeModules.notePoll('rt', 20);
    await store.computeModules.notePoll('rt', 10);
    expect(await store.computeModules.lastPoll('rt')).toBe(20);
    await store.clear();
    expect(await store.computeModules.lastPoll('rt')).toBeUndefined();
  });
});

describe(`lists for the dashboard (${kind} store)`, () => {
  it("lists the newest access tokens and a runtime's newest jobs first", async () => {
    for (const t of ['t1', 't2', 't3']) await store.tokens.insertAccess(access(t));
    expect((await store.tokens.listAccess(2)).map((t) => t.token)).toEqual(['t3', 't2']);
    const job = (jobId: string, runtimeId = 'rt') => ({
      jobId,
      runtimeId,
      deployedAppRid: 'ri.app',
      branch: 'master',
      queryType: 'q',
      query: {},
      state: 'queued' as const,
      handOuts: 0,
      submittedAt: 1,
    });
    for (const id of ['j1', 'j2', 'j3']) await store.computeModuleJobs.insert(job(id));
    await store.computeModuleJobs.insert(job('other', 'rt2'));
    expect((await store.computeModuleJobs.listByRuntime('rt', 2)).map((j) => j.jobId)).toEqual(['j3', 'j2']);
  });
});

describe(`oauth (${kind} store)`, () => {
  it('consumes a code once, then reports replays, and forgets it when it expires', async () => {
    const code = { code: 'c1', clientId: 'web', redirectUri: 'https://x/cb', scopes: ['s'], userId: 'u', grantId: 'g', expiresAt: 50 };
    await store.oauth.insertCode(code);
    expect(await store.oauth.consumeCode('c1')).toEqual({ outcome: 'fresh', code: { ...code, consumed: true } });
    expect(await store.oauth.consumeCode('c1')).toMatchObject({ outcome: 'replayed', code: { code: 'c1', grantId: 'g' } });
    expect(await store.oauth.consumeCode('c2')).toEqual({ outcome: 'unknown' });
    expect(await store.oauth.sweepExpired(50)).toBe(1);
    expect(await store.oauth.consumeCode('c1')).toEqual({ outcome: 'unknown' });
  });

  it('a sign-in request is taken once', async () => {
    const request = { id: 'r1', clientId: 'web', redirectUri: 'https://x/cb', scopes: [], csrfToken: 'x', browserId: 'b', expiresAt: 10, state: 'st' };
    await store.oauth.saveAuthorizeRequest(request);
    expect(await store.oauth.findAuthorizeRequest('r1')).toEqual(request);
    expect(await store.oauth.takeAuthorizeRequest('r1')).toEqual(request);
    expect(await store.oauth.takeAuthorizeRequest('r1')).toBeUndefined();
  });

  it('rotates a refresh token once; a reuse names the grant; a revoked grant retires its family', async () => {
    await store.oauth.insertRefreshToken(refresh('r1'));
    expect(await store.oauth.rotateRefreshToken('r1', refresh('r2'))).toEqual({ outcome: 'rotated' });
    expect(await store.oauth.rotateRefreshToken('r1', refresh('r3'))).toEqual({ outcome: 'reused', grantId: 'g' });
    expect(await store.oauth.findRefreshToken('r3')).toBeUndefined();
    expect(await store.oauth.rotateRefreshToken('zz', refresh('r4'))).toEqual({ outcome: 'unknown' });
    expect((await store.oauth.findRefreshToken('r1'))?.retired).toBe(true);
    expect((await store.oauth.findRefreshToken('r2'))?.retired).toBeFalsy();
    await store.oauth.revokeGrant('g', 70);
    await store.oauth.revokeGrant('g', 90); // the first mark stays
    expect(await store.oauth.isGrantRevoked('g')).toBe(true);
    expect((await store.oauth.findRefreshToken('r2'))?.retired).toBe(true);
    expect(await store.oauth.rotateRefreshToken('r2', refresh('r5'))).toEqual({ outcome: 'reused', grantId: 'g' });
    expect(await store.oauth.counts()).toEqual({ authorizeRequests: 0, codes: 0, refreshTokens: 2, revokedGrants: 1 });
    expect(await store.oauth.sweepExpired(70)).toBe(1); // the mark
    expect(await store.oauth.sweepExpired(100)).toBe(2);
    expect(await store.oauth.isGrantRevoked('g')).toBe(false);
  });
});

describe(`clients, enrollment, connections and ontologies (${kind} store)`, () => {
  it('first definition wins; records come back as stored', async () => {
    const client = { clientId: 'web', name: 'Web', redirectUris: ['https://x/cb'], grantTypes: ['authorization_code' as const], allowedScopes: [] };
    expect(await store.clients.insert(client)).toBe(true);
    expect(await store.clients.insert({ ...client, name: 'Other' })).toBe(false);
    expect(await store.clients.byId('web')).toEqual(client);
    expect(await store.clients.count()).toBe(1);

    expect((await store.enrollment.get()).rid).toBe('ri.enrollment..enrollment.default');
    await store.enrollment.set({ rid: 'ri.e', name: 'E', createdTime: '2020-01-01T00:00:00.000Z' });
    expect(await store.enrollment.get()).toEqual({ rid: 'ri.e', name: 'E', createdTime: '2020-01-01T00:00:00.000Z' });
  });

  it('merges connection secrets and keeps the others', async () => {
    const connection = {
      rid: 'ri.c',
      displayName: 'C',
      parentFolderRid: 'ri.f',
      worker: { type: 'foundryWorker' as const, networkEgressPolicyRids: [] },
      domains: [{ host: 'h' }],
      secrets: { a: '1', b: '2' },
    };
    expect(await store.connections.insert(connection)).toBe(true);
    expect(await store.connections.insert(connection)).toBe(false);
    expect(await store.connections.mergeSecrets('ri.c', { b: '3', c: '4' })).toBe(true);
    expect(await store.connections.mergeSecrets('ri.none', { b: '3' })).toBe(false);
    expect((await store.connections.byRid('ri.c'))?.secrets).toEqual({ a: '1', b: '3', c: '4' });
  });

  it('keeps ontologies in seed order with their query bytes exactly', async () => {
    const bytes = Buffer.from('{"b":1,"a":[1.0,2]}');
    await store.ontologies.insert({ rid: 'ri.o2', apiName: 'second', displayName: 'S', description: '', ...noTypes, queries: new Map([['q', bytes]]) });
    await store.ontologies.insert({ rid: 'ri.o1', apiName: 'first', displayName: 'F', description: 'd', ...noTypes, queries: new Map() });
    expect(await store.ontologies.insert({ rid: 'ri.o3', apiName: 'first', displayName: 'X', description: '', ...noTypes, queries: new Map() })).toBe(false);
    expect((await store.ontologies.list()).map((o) => o.apiName)).toEqual(['second', 'first']);
    expect((await store.ontologies.byApiName('second'))?.queries.get('q')).toEqual(bytes);
    expect((await store.ontologies.byRid('ri.o1'))?.description).toBe('d');
    expect(await store.ontologies.count()).toBe(2);
  });
});

describe(`compute modules (${kind} store)`, () => {
  it('opens sessions (created, then reset with no schemas) and binds deployed apps', async () => {
    expect(await store.computeModules.openSession({ runtimeId: 'rt', moduleAuthToken: 'a'.repeat(16) })).toBe(true);
    expect(await store.computeModules.setSchemas('rt', [{ name: 'f', b: 1, a: 2 }])).toBe(true);
    expect(await store.computeModules.schemas('rt')).toEqual([{ name: 'f', b: 1, a: 2 }]);
    expect(await store.computeModules.openSession({ runtimeId: 'rt', moduleAuthToken: 'b'.repeat(16) })).toBe(false);
    expect(await store.computeModules.schemas('rt')).toEqual([]);
    expect(await store.computeModules.runtime('rt')).toEqual({ runtimeId: 'rt', moduleAuthToken: 'b'.repeat(16) });
    expect(await store.computeModules.setSchemas('none', [])).toBe(false);
    expect(await store.computeModules.insertRuntime({ runtimeId: 'rt', moduleAuthToken: 'c'.repeat(16) })).toBe(false);

    const app = { deployedAppRid: 'ri.app', branch: 'master', runtimeId: 'rt', active: true };
    expect(await store.computeModules.insertDeployedApp(app)).toBe(true);
    expect(await store.computeModules.insertDeployedApp(app)).toBe(false);
    await store.computeModules.upsertDeployedApp({ ...app, runtimeId: 'rt2', displayName: 'D' });
    expect(await store.computeModules.deployedApp('ri.app', 'master')).toEqual({ ...app, runtimeId: 'rt2', displayName: 'D' });
    expect(await store.computeModules.deployedAppsOf('rt2')).toHaveLength(1);
    expect(await store.computeModules.deployedAppsOf('rt')).toEqual([]);
    expect([await store.computeModules.countRuntimes(), await store.computeModules.countDeployedApps()]).toEqual([1, 1]);
  });

  it('keeps a job query exactly, key order included', async () => {
    const query = { z: 1, a: { y: [1, 2], b: 'x' } };
    await store.computeModuleJobs.insert({
      jobId: 'j',
      runtimeId: 'rt',
      deployedAppRid: 'ri.app',
      branch: 'master',
      queryType: 'q',
      query,
      state: 'queued',
      handOuts: 0,
      submittedAt: 5,
    });
    const job = await store.computeModuleJobs.byId('j');
    expect(JSON.stringify(job?.query)).toBe(JSON.stringify(query));
    expect(job).toMatchObject({ state: 'queued', handOuts: 0, submittedAt: 5 });
  });

  it('clear forgets everything', async () => {
    await store.tokens.insertAccess(access('t1'));
    await store.computeModules.insertRuntime({ runtimeId: 'rt', moduleAuthToken: 'a'.repeat(16) });
    await store.clear();
    expect(await store.tokens.countAccess()).toBe(0);
    expect(await store.computeModules.countRuntimes()).toBe(0);
  });
});
