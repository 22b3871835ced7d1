// Minting access tokens on PostgreSQL without a counter written per mint (access-token-cap.ts, migration 6) and
// client_credentials' one-statement mint (PgTokens.insertAccessForClientPrincipal, batched by coalesce.ts).
// The cap must hold exactly however mints race, across instances, after refusals and deletions; the one-step
// mint must store what the general path would, and store nothing whenever the general path must decide.
import { afterEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { openPostgresStore } from '../../src/store/postgres-store.js';
import { MIGRATIONS, migrate } from '../../src/store/postgres/migrations.js';
import { parseStoreUrl } from '../../src/store/postgres/url.js';
import { StoreFull } from '../../src/store/capacity.js';
import type { AccessTokenRecord, ClientRecord, Store, UserRecord } from '../../src/store/store.js';
import { freshSchemaUrl } from '../helpers/store.js';
import { baseUrl } from './helpers.js';

const opened: Store[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});
async function open(url = freshSchemaUrl(baseUrl())): Promise<Store & { url: string }> {
  const store = await openPostgresStore({ url });
  opened.push(store);
  return Object.assign(store, { url });
}

const access = (token: string): AccessTokenRecord => ({ token, principalId: 'u', clientId: null, scopes: [], expiresAt: 10_000 });
const unnamed = (token: string, clientId = 'svc'): Omit<AccessTokenRecord, 'principalId'> => ({
  token,
  clientId,
  scopes: ['api:admin-read', 'x"y\u0000'],
  expiresAt: 10_000,
});
const client = (extra: Partial<ClientRecord> = {}): ClientRecord => ({
  clientId: 'svc',
  clientSecret: 's3cret',
  name: 'Service',
  redirectUris: [],
  grantTypes: ['client_credentials'],
  allowedScopes: [],
  ...extra,
});
const principal = (id: string, extra: Partial<UserRecord> = {}): UserRecord => ({
  id,
  username: 'svc',
  displayName: 'Service',
  realm: 'r',
  organizationRid: '',
  principalType: 'service',
  active: true,
  oauthClientId: 'svc',
  attributes: {},
  ...extra,
});
/** Settles every promise; how many were fulfilled, and whether every rejection was StoreFull. */
async function outcomes(promises: Array<Promise<unknown>>): Promise<{ ok: number; full: number; other: unknown[] }> {
  const settled = await Promise.allSettled(promises);
  const rejected = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected').map((s) => s.reason as unknown);
  return {
    ok: settled.length - rejected.length,
    full: rejected.filter((r) => r instanceof StoreFull).length,
    other: rejected.filter((r) => !(r instanceof StoreFull)),
  };
}

describe('the access-token cap without a per-mint counter', () => {
  it('refuses at the cap, remembers it was full, and makes room once a token is deleted', async () => {
    const { tokens } = await open();
    for (const t of ['a', 'b', 'c']) await tokens.insertAccess(access(t), 3);
    for (let i = 0; i < 5; i++) await expect(tokens.insertAccess(access(`refused${i}`), 3)).rejects.toBeInstanceOf(StoreFull);
    expect(await tokens.countAccess()).toBe(3);
    // The refusals took sequence numbers: the bound is now well above the count, and a recount must find the room.
    await tokens.revokeAccess('b');
    await tokens.insertAccess(access('d'), 3);
    await expect(tokens.insertAccess(access('e'), 3)).rejects.toBeInstanceOf(StoreFull);
    // A larger cap (another instance's configuration) is not refused by the remembered "full".
    await tokens.insertAccess(access('f'), 4);
    expect(await tokens.countAccess()).toBe(4);
  });

  it('racing mints on two instances stop exactly at the cap, and so do mints racing deletions', async () => {
    const a = await open();
    const b = await open(a.url);
    const first = await outcomes(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).tokens.insertAccess(access(`t${i}`), 25)));
    expect(first).toEqual({ ok: 25, full: 15, other: [] });
    expect(await a.tokens.countAccess()).toBe(25);
    // Deleting 10 while 30 more race for the room: at most 25 live at the end, and every freed place is usable.
    const racing = await outcomes([
      ...Array.from({ length: 10 }, (_, i) => a.tokens.revokeAccess(`t${i}`)),
      ...Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).tokens.insertAccess(access(`u${i}`), 25)),
    ]);
    expect(racing.other).toEqual([]);
    expect(await a.tokens.countAccess()).toBeLessThanOrEqual(25);
    await outcomes(Array.from({ length: 30 }, (_, i) => b.tokens.insertAccess(access(`v${i}`), 25)));
    expect(await a.tokens.countAccess()).toBe(25);
  });

  it('a reset empties the count: the cap is whole again', async () => {
    const store = await open();
    for (const t of ['a', 'b']) await store.tokens.insertAccess(access(t), 2);
    await expect(store.tokens.insertAccess(access('c'), 2)).rejects.toBeInstanceOf(StoreFull);
    await store.clear();
    for (const t of ['d', 'e']) await store.tokens.insertAccess(access(t), 2);
    await expect(store.tokens.insertAccess(access('f'), 2)).rejects.toBeInstanceOf(StoreFull);
  });

  it('a database migrated with tokens in it counts them (migration 6 sets the offset from what is stored)', async () => {
    const url = freshSchemaUrl(baseUrl());
    const { connectionString, schema } = parseStoreUrl(url);
    const db = new pg.Client({ connectionString });
    await db.connect();
    try {
      // The schema as the previous release left it: migrations 1-5, then three tokens and one deleted.
      await db.query(`CREATE SCHEMA ${schema}`);
      await db.query(`CREATE TABLE ${schema}.schema_migrations (version int PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
      await db.query(`SET search_path = ${schema}`);
      for (const m of MIGRATIONS.filter((m) => m.version <= 5)) {
        await db.query(m.sql);
        await db.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      }
      for (const t of ['a', 'b', 'c'])
        await db.query('INSERT INTO access_tokens (token, expires_at, record) VALUES ($1, 10000, $2)', [t, JSON.stringify(access(t))]);
      await db.query("DELETE FROM access_tokens WHERE token = 'a'");
      expect(await migrate(db, schema)).toEqual([6, 7]);
    } finally {
      await db.end();
    }
    const { tokens } = await open(url);
    await tokens.insertAccess(access('d'), 3);
    await expect(tokens.insertAccess(access('e'), 3)).rejects.toBeInstanceOf(StoreFull);
    expect(await tokens.countAccess()).toBe(3);
  });
});

describe("client_credentials' one-statement mint", () => {
  it('stores the record the general path stores, for the automatic principal', async () => {
    const { tokens, users } = await open();
    const mint = tokens.insertAccessForClientPrincipal!.bind(tokens);
    expect(await mint('svc', unnamed('early'))).toBeUndefined(); // no principal yet: the general path makes it
    expect(await tokens.findAccess('early')).toBeUndefined();
    await users.servicePrincipalFor('svc', () => principal('auto'));
    expect(await mint('svc', unnamed('t1'))).toBe('svc'); // the username the journal names
    const stored = await tokens.findAccess('t1');
    const { token, ...rest } = unnamed('t1');
    const expected = { token, principalId: 'auto', ...rest };
    expect(stored).toEqual(expected);
    expect(Object.keys(stored!)).toEqual(Object.keys(expected)); // key order as every token record has it
  });

  it('acts as the seeded service user naming the client; a deactivated one gets nothing', async () => {
    const { tokens, users } = await open();
    await users.servicePrincipalFor('svc', () => principal('auto'));
    await users.insert(principal('seeded', { username: 'svc-user' }));
    expect(await tokens.insertAccessForClientPrincipal!('svc', unnamed('t1'))).toBe('svc-user');
    expect((await tokens.findAccess('t1'))?.principalId).toBe('seeded');
    await users.setActive('svc-user', false);
    expect(await tokens.insertAccessForClientPrincipal!('svc', unnamed('t2'))).toBeUndefined();
    expect(await tokens.findAccess('t2')).toBeUndefined();
  });

  it('with asOf, stores only while the stored client equals it', async () => {
    const { tokens, users, clients } = await open();
    await users.servicePrincipalFor('svc', () => principal('auto'));
    await clients.insert(client());
    const readBack = (await clients.byId('svc'))!;
    expect(await tokens.insertAccessForClientPrincipal!('svc', unnamed('t1'), undefined, readBack)).toBe('svc');
    await clients.upsert(client({ clientSecret: 'rotated' }));
    expect(await tokens.insertAccessForClientPrincipal!('svc', unnamed('t2'), undefined, readBack)).toBeUndefined();
    expect(await tokens.findAccess('t2')).toBeUndefined();
    expect(await tokens.insertAccessForClientPrincipal!('other\u0000id', unnamed('t3', 'other\u0000id'), undefined, readBack)).toBeUndefined(); // U+0000: no driver error
  });

  it('mints made together go out together, each judged alone: exactly the cap is stored', async () => {
    const a = await open();
    const b = await open(a.url);
    await a.users.servicePrincipalFor('svc', () => principal('auto'));
    await a.tokens.insertAccess(access('already'), 30);
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).tokens.insertAccessForClientPrincipal!('svc', unnamed(`t${i}`), 30)),
    );
    expect(answers.filter((name) => name !== undefined).length).toBe(29);
    expect(await a.tokens.countAccess()).toBe(30);
    for (const [i, stored] of answers.entries()) expect(!!(await a.tokens.findAccess(`t${i}`))).toBe(stored !== undefined);
  });
});
