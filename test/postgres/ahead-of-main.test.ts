// The PostgreSQL side of what main's store interface gained while this store was built: caps and leases
// (docs/contracts.md §6, §8) and the control routes' upserts and lists. The methods exist on the PostgreSQL
// repositories already, so that they satisfy that interface once merged; pinned here until the store
// contract tests (which run on both stores) cover them.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../src/store/postgres-store.js';
import type { PgTokens } from '../../src/store/postgres/tokens.js';
import type { PgOAuth } from '../../src/store/postgres/oauth.js';
import type { PgUsers } from '../../src/store/postgres/users.js';
import type { PgComputeModuleJobs } from '../../src/store/postgres/compute-module-jobs.js';
import type { PgClients } from '../../src/store/postgres/clients.js';
import type { PgConnections } from '../../src/store/postgres/connections.js';
import type { PgOntologies } from '../../src/store/postgres/ontologies.js';
import type { PgComputeModules } from '../../src/store/postgres/compute-modules.js';
import type { JobRecord, RefreshTokenRecord, Store, UserRecord } from '../../src/store/store.js';
import { StoreFull } from '../../src/store/capacity.js';
import { freshSchemaUrl } from '../helpers/store.js';
import { baseUrl } from './helpers.js';

const noTypes = { queryTypes: new Map(), objectTypes: new Map(), actionTypes: new Map() };

let store: Store;
let tokens: PgTokens;
let oauth: PgOAuth;
let users: PgUsers;
let jobs: PgComputeModuleJobs;
beforeEach(async () => {
  store = await openPostgresStore({ url: freshSchemaUrl(baseUrl()) });
  tokens = store.tokens as PgTokens;
  oauth = store.oauth as PgOAuth;
  users = store.users as PgUsers;
  jobs = store.computeModuleJobs as PgComputeModuleJobs;
});
afterEach(() => store.close());

const refresh = (token: string, expiresAt = 100): RefreshTokenRecord => ({ token, clientId: 'c', userId: 'u', scopes: [], grantId: `g-${token}`, expiresAt });
const job = (jobId: string, runtimeId = 'rt'): JobRecord => ({
  jobId,
  runtimeId,
  deployedAppRid: 'a',
  branch: 'm',
  queryType: 'q',
  query: {},
  state: 'queued',
  handOuts: 0,
  submittedAt: 0,
});

describe('caps on PostgreSQL', () => {
  it('access tokens: refuses past the cap, never evicts; a sweep and a reset make room', async () => {
    const access = (t: string, expiresAt = 10) => ({ token: t, principalId: 'u', clientId: null, scopes: [], expiresAt });
    await tokens.insertAccess(access('a'), 2);
    await tokens.insertAccess(access('b', 20), 2);
    await expect(tokens.insertAccess(access('c'), 2)).rejects.toBeInstanceOf(StoreFull);
    expect(await tokens.findAccess('c')).toBeUndefined();
    await Promise.all([tokens.insertAccess(access('x', 30), 1_000_000), tokens.sweepExpired(10)]); // a swept, x stays
    await tokens.insertAccess(access('d'), 3);
    await expect(Promise.all(['e', 'f', 'g'].map((t) => tokens.insertAccess(access(t, 30), 5)))).rejects.toBeInstanceOf(StoreFull);
    expect(await tokens.countAccess()).toBe(5); // racing inserts stop exactly at the cap
    await store.clear();
    await tokens.insertAccess(access('h'), 1);
  });

  it('sign-in requests, codes and revoked-grant marks: the oldest are forgotten at the cap', async () => {
    for (const id of ['r1', 'r2', 'r3'])
      await oauth.saveAuthorizeRequest({ id, clientId: 'c', redirectUri: 'u', scopes: [], csrfToken: 'x', browserId: 'b', expiresAt: Number(id[1]) }, 2);
    expect(await oauth.findAuthorizeRequest('r1')).toBeUndefined();
    expect(await oauth.findAuthorizeRequest('r3')).toBeDefined();
    for (const code of ['c1', 'c2', 'c3'])
      await oauth.insertCode({ code, clientId: 'c', redirectUri: 'u', scopes: [], userId: 'u', grantId: 'g', expiresAt: Number(code[1]) }, 2);
    expect((await oauth.consumeCode('c1')).outcome).toBe('unknown');
    expect((await oauth.consumeCode('c3')).outcome).toBe('fresh');
    await oauth.revokeGrant('g1', 1, 2);
    await oauth.revokeGrant('g2', 2, 2);
    await oauth.revokeGrant('g2', 5, 2); // marked already: nothing forgotten
    expect(await oauth.isGrantRevoked('g1')).toBe(true);
    await oauth.revokeGrant('g3', 3, 2);
    expect([await oauth.isGrantRevoked('g1'), await oauth.isGrantRevoked('g2'), await oauth.isGrantRevoked('g3')]).toEqual([false, true, true]);
    expect(await oauth.counts()).toMatchObject({ authorizeRequests: 2, codes: 2, revokedGrants: 2 });
  });

  it('refresh tokens: the one retired first makes room; all live is StoreFull; a rotation never refuses', async () => {
    await oauth.insertRefreshToken(refresh('a'), 2);
    await oauth.insertRefreshToken(refresh('b'), 2);
    await expect(oauth.insertRefreshToken(refresh('c'), 2)).rejects.toBeInstanceOf(StoreFull);
    expect(await oauth.rotateRefreshToken('a', refresh('a2'), 2)).toEqual({ outcome: 'rotated' }); // forgets a itself
    expect(await oauth.findRefreshToken('a')).toBeUndefined();
    expect(await oauth.rotateRefreshToken('b', refresh('b2'), 3)).toEqual({ outcome: 'rotated' }); // room: b stays, retired
    expect((await oauth.findRefreshToken('b'))?.retired).toBe(true);
    await oauth.revokeGrant('g-a2', 1000);
    await oauth.insertRefreshToken(refresh('d'), 3); // forgets b (retired before a2)
    expect(await oauth.findRefreshToken('b')).toBeUndefined();
    expect((await oauth.findRefreshToken('a2'))?.retired).toBe(true);
    expect(await oauth.rotateRefreshToken('b', refresh('x'), 3)).toEqual({ outcome: 'unknown' });
    expect((await oauth.counts()).refreshTokens).toBe(3);
  });

  it('service principals: capped ones are counted; seeded and existing ones are still answered', async () => {
    let n = 0;
    const make = (): UserRecord => ({
      id: `p${++n}`,
      username: `p${n}`,
      displayName: 'p',
      realm: 'r',
      organizationRid: 'o',
      principalType: 'service',
      active: true,
      attributes: {},
    });
    await users.insert({ ...make(), username: 'bot', oauthClientId: 'seeded' });
    await users.servicePrincipalFor('one', make, 1);
    await expect(users.servicePrincipalFor('two', make, 1)).rejects.toBeInstanceOf(StoreFull);
    expect((await users.servicePrincipalFor('one', make, 1)).id).toBe('p2');
    expect((await users.servicePrincipalFor('seeded', make, 1)).username).toBe('bot');
    expect((await users.servicePrincipalFor('uncapped', make)).id).toBeDefined();
  });
});

describe('job caps and leases on PostgreSQL', () => {
  it('insertIfRoom stops at the queue cap, also when submits race', async () => {
    await store.computeModules.insertRuntime({ runtimeId: 'rt', moduleAuthToken: 'x'.repeat(16) });
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => jobs.insertIfRoom(job(`j${i}`), 5)));
    expect(answers.filter(Boolean)).toHaveLength(5);
    await jobs.claimNext('rt', 1);
    expect(await jobs.insertIfRoom(job('late'), 5)).toBe(true);
  });

  it('fail, requeueHandedOutBefore and the byte bound of pruneFinished', async () => {
    for (const id of ['a', 'b', 'c', 'd']) await jobs.insert(job(id));
    await jobs.claimNext('rt', 10);
    await jobs.claimNext('rt', 20);
    const outcome = await jobs.requeueHandedOutBefore('rt', 15, 3, 'gone', 30);
    expect(outcome.requeued.map((j) => j.jobId)).toEqual(['a']);
    expect((await jobs.byId('b'))?.state).toBe('inProgress');
    expect(await jobs.fail('b', 'bad query', 31)).toMatchObject({ state: 'failed', failure: 'bad query', finishedAt: 31 });
    expect(await jobs.fail('b', 'again', 32)).toBeUndefined();
    await jobs.complete('a', { body: Buffer.alloc(100) }, 40);
    await jobs.complete('c', { body: Buffer.alloc(50) }, 41);
    await jobs.complete('d', { body: Buffer.alloc(30) }, 42);
    expect(await jobs.retainedResultBytes()).toBe(180);
    expect(await jobs.pruneFinished(10, 100)).toBe(2); // b (no bytes, older than a) and a go; c and d fit in 100
    expect(await jobs.byId('c')).toBeDefined();
    expect(await jobs.retainedResultBytes()).toBe(80);
    expect(await jobs.pruneFinished(1)).toBe(1);
    expect(await jobs.retainedResultBytes()).toBe(30);
    await store.clear();
    expect(await jobs.retainedResultBytes()).toBe(0);
  });
});

describe('upserts and lists on PostgreSQL', () => {
  it("users: an upsert replaces in place, keeps the id and its tokens' owner, and lists in seed order", async () => {
    const u = (username: string, extra: Partial<UserRecord> = {}): UserRecord => ({
      id: `id-${username}`,
      username,
      displayName: username,
      realm: 'r',
      organizationRid: 'o',
      principalType: 'human',
      active: true,
      attributes: {},
      ...extra,
    });
    await users.insert(u('a'));
    await users.insert(u('b'));
    expect(await users.upsert(u('a', { id: 'other', displayName: 'A!', active: false }))).toBe(false);
    expect(await users.upsert(u('c'))).toBe(true);
    expect((await users.list()).map((x) => [x.username, x.id, x.displayName, x.active])).toEqual([
      ['a', 'id-a', 'A!', false],
      ['b', 'id-b', 'b', true],
      ['c', 'id-c', 'c', true],
    ]);
    await users.upsert(u('b', { principalType: 'service', oauthClientId: 'app' }));
    expect((await users.servicePrincipalFor('app', () => u('made'))).username).toBe('b');
  });

  it('clients, connections, runtimes and query results', async () => {
    const clients = store.clients as PgClients;
    const client = (clientId: string, name = clientId) => ({ clientId, name, redirectUris: [], grantTypes: [], allowedScopes: [] });
    await clients.insert(client('x'));
    expect(await clients.upsert(client('y'))).toBe(true);
    expect(await clients.upsert(client('x', 'X2'))).toBe(false);
    expect((await clients.list()).map((c) => c.name)).toEqual(['X2', 'y']);

    const connections = store.connections as PgConnections;
    const connection = (rid: string, displayName = rid) => ({
      rid,
      displayName,
      parentFolderRid: 'f',
      worker: { type: 'foundryWorker' as const, networkEgressPolicyRids: [] },
      domains: [],
      secrets: {},
    });
    expect(await connections.upsert(connection('r1'))).toBe(true);
    await connections.insert(connection('r2'));
    expect(await connections.upsert(connection('r1', 'R1'))).toBe(false);
    expect((await connections.list()).map((c) => c.displayName)).toEqual(['R1', 'r2']);

    const modules = store.computeModules as PgComputeModules;
    await modules.insertRuntime({ runtimeId: 'rt-b', moduleAuthToken: 'b'.repeat(16) });
    await modules.openSession({ runtimeId: 'rt-a', moduleAuthToken: 'a'.repeat(16) });
    await modules.openSession({ runtimeId: 'rt-b', moduleAuthToken: 'c'.repeat(16) });
    expect(await modules.listRuntimes()).toEqual([
      { runtimeId: 'rt-b', moduleAuthToken: 'c'.repeat(16) },
      { runtimeId: 'rt-a', moduleAuthToken: 'a'.repeat(16) },
    ]);

    const ontologies = store.ontologies as PgOntologies;
    await ontologies.insert({ rid: 'ri.o', apiName: 'o', displayName: 'O', description: '', ...noTypes, queries: new Map([['q1', Buffer.from('1')]]) });
    expect(await ontologies.setQueryResult('o', 'q2', Buffer.from('2'))).toBe(true);
    expect(await ontologies.setQueryResult('o', 'q1', Buffer.from('"one"'))).toBe(true);
    expect(await ontologies.setQueryResult('none', 'q', Buffer.from('x'))).toBe(false);
    const queries = (await ontologies.byApiName('o'))!.queries;
    expect([...queries].map(([k, v]) => [k, v.toString()])).toEqual([
      ['q1', '"one"'],
      ['q2', '2'],
    ]);
  });
});
