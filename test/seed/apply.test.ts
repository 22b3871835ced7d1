import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../helpers/app.js';
import { countOf, madeDefaultAdmin } from '../helpers/seed.js';

describe('seed application', () => {
  it('creates the default admin when the seed has no user admin', async () => {
    const { store, summary } = await buildTestApp({ seed: 'platform:\n  users: [{ username: alice }]\n' });
    expect(madeDefaultAdmin(summary)).toBe(true);
    const admin = await store.users.byUsername('admin');
    expect(admin).toMatchObject({
      username: 'admin',
      displayName: 'Admin',
      givenName: 'Admin',
      email: 'admin@localhost',
      realm: 'platform-internal-realm',
      organizationRid: 'ri.organization.main.organization.default',
      principalType: 'human',
      active: true,
    });
    // default admin first, then seed order
    expect((await store.users.listActiveHumans()).map((u) => u.username)).toEqual(['admin', 'alice']);
  });

  it('skips the default admin when the seed lists one, and uses the seeded fields', async () => {
    const { store, summary } = await buildTestApp({ seed: 'platform:\n  users: [{ username: alice }, { username: admin, email: root@corp }]\n' });
    expect(madeDefaultAdmin(summary)).toBe(false);
    expect(countOf(summary, 'users')).toBe(2);
    const admin = await store.users.byUsername('admin');
    expect(admin?.email).toBe('root@corp');
    expect(admin?.displayName).toBe('admin');
    expect((await store.users.listActiveHumans()).map((u) => u.username)).toEqual(['alice', 'admin']);
  });

  it('keeps the first definition of a duplicate and warns with its path', async () => {
    const { store, summary } = await buildTestApp({
      seed: `
platform:
  users:
    - { username: bob, email: first@x }
    - { username: bob, email: second@x }
  oauth_clients:
    - { client_id: app, client_secret: one }
    - { client_id: app, client_secret: two }
`,
    });
    expect((await store.users.byUsername('bob'))?.email).toBe('first@x');
    expect((await store.clients.byId('app'))?.clientSecret).toBe('one');
    expect(summary.warnings).toEqual([
      'platform.users[1]: duplicate username "bob" skipped (the first definition wins)',
      'platform.oauth_clients[1]: duplicate client_id "app" skipped (the first definition wins)',
    ]);
  });

  it('warns about open mode when no client is seeded', async () => {
    const { summary } = await buildTestApp();
    expect(summary.warnings).toEqual(['no oauth_clients seeded: open mode, any client_id is accepted as a public client']);
    expect(countOf(summary, 'users')).toBe(1);
  });

  it('treats an empty client secret as a public client', async () => {
    const { store } = await buildTestApp({ seed: 'platform:\n  oauth_clients: [{ client_id: pub, client_secret: "" }, { client_id: pub2 }]\n' });
    expect((await store.clients.byId('pub'))?.clientSecret).toBeUndefined();
    expect((await store.clients.byId('pub2'))?.clientSecret).toBeUndefined();
  });

  it('creates runtimes named by deployed apps, generating their tokens; keeps a listed token', async () => {
    const { store, summary } = await buildTestApp({
      seed: `
platform:
  compute_modules:
    runtimes: [{ runtime_id: listed, module_auth_token: fixed-token }]
    deployed_apps:
      - { deployed_app_rid: ri.a, runtime_id: listed }
      - { deployed_app_rid: ri.b, runtime_id: implied, branch: dev, active: false }
`,
    });
    expect(countOf(summary, 'runtimes')).toBe(2);
    expect((await store.computeModules.listRuntimes()).length).toBe(2);
    expect(await store.computeModules.countDeployedApps()).toBe(2);
    expect((await store.computeModules.runtime('listed'))?.moduleAuthToken).toBe('fixed-token');
    expect((await store.computeModules.runtime('implied'))?.moduleAuthToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await store.computeModules.deployedApp('ri.b', 'dev')).toMatchObject({ runtimeId: 'implied', active: false });
    expect(await store.computeModules.deployedApp('ri.b', 'master')).toBeUndefined();
  });

  it('generates stable RIDs for connections and ontologies without one, and keeps given ones', async () => {
    const seed = `
platform:
  connections:
    - { display_name: A, parent_folder_rid: ri.f }
    - { rid: ri.magritte..source.given, display_name: B, parent_folder_rid: ri.f, domains: [{ host: h, port: 443, scheme: HTTPS }] }
  ontologies:
    - { api_name: o1, display_name: O1, queries: [{ api_name: q, result: { value: 1 } }, { api_name: q, result: 2 }] }
`;
    const first = await buildTestApp({ seed });
    const second = await buildTestApp({ seed });
    const [o1] = await first.store.ontologies.list();
    expect(o1!.rid).toMatch(/^ri\.ontology\.main\.ontology\.[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect((await second.store.ontologies.list())[0]!.rid).toBe(o1!.rid);
    expect(o1!.description).toBe('');
    expect([...o1!.queries]).toEqual([['q', Buffer.from('{"value":1}')]]);
    expect(first.summary.warnings).toContain('platform.ontologies[0].queries[1]: duplicate api_name "q" skipped (the first definition wins)');
    const given = await first.store.connections.byRid('ri.magritte..source.given');
    expect(given).toMatchObject({ displayName: 'B', domains: [{ host: 'h', port: 443, scheme: 'HTTPS' }], secrets: {} });
    expect(countOf(first.summary, 'connections')).toBe(2);
  });

  it('gives users the same id on every start', async () => {
    const a = await buildTestApp();
    const b = await buildTestApp();
    expect((await a.store.users.byUsername('admin'))!.id).toBe((await b.store.users.byUsername('admin'))!.id);
  });
});
