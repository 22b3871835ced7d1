// Bearer lookups made at the same time share one statement (bearer-lookups.ts): each caller must still get the
// answer to its own question, whatever else was asked with it.
import { afterEach, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../src/store/postgres-store.js';
import type { AccessTokenRecord, Store, UserRecord } from '../../src/store/store.js';
import { freshSchemaUrl } from '../helpers/store.js';
import { baseUrl } from './helpers.js';

let store: Store | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

const human = (id: string, username: string): UserRecord => ({
  id,
  username,
  displayName: username,
  realm: 'r',
  organizationRid: 'o',
  principalType: 'human',
  active: true,
  attributes: {},
});
const access = (token: string, principalId: string): AccessTokenRecord => ({ token, principalId, clientId: 'c', scopes: [token], expiresAt: 10_000 });

describe('bearer lookups made together', () => {
  it('answer each caller with its own token and user: repeats, unknown tokens, a missing user, U+0000', async () => {
    store = await openPostgresStore({ url: freshSchemaUrl(baseUrl()) });
    await store.users.insert(human('u1', 'alice'));
    await store.users.insert(human('u2', 'bob'));
    await store.users.setActive('bob', false);
    for (let i = 0; i < 20; i++) await store.tokens.insertAccess(access(`t${i}`, i % 3 === 0 ? 'u1' : i % 3 === 1 ? 'u2' : 'gone'));
    const asked = [...Array.from({ length: 20 }, (_, i) => `t${i}`), 't3', 't3', 'nope', 't\u0000x', 't7'];
    const find = store.tokens.findAccessWithPrincipal!.bind(store.tokens);
    const answers = await Promise.all(asked.map((t) => find(t)));
    for (const [i, token] of asked.entries()) {
      const n = Number(token.slice(1));
      if (!/^t\d+$/.test(token)) {
        expect(answers[i]).toBeUndefined();
        continue;
      }
      const principalId = n % 3 === 0 ? 'u1' : n % 3 === 1 ? 'u2' : 'gone';
      expect(answers[i]?.token).toEqual(access(token, principalId));
      expect(answers[i]?.principal?.id).toBe(principalId === 'gone' ? undefined : principalId);
      if (principalId === 'u2') expect(answers[i]?.principal?.active).toBe(false);
    }
    // A repeated token gets objects of its own: one caller changing its answer does not change another's.
    const [first, second] = await Promise.all([find('t3'), find('t3')]);
    first!.token.scopes.push('changed');
    expect(second!.token.scopes).toEqual(['t3']);
  });

  it('give back the same user object while its row is unchanged, and a new one once it is replaced or deactivated', async () => {
    store = await openPostgresStore({ url: freshSchemaUrl(baseUrl()) });
    await store.users.insert(human('u1', 'alice'));
    await store.tokens.insertAccess(access('t1', 'u1'));
    const find = (t: string) => store!.tokens.findAccessWithPrincipal(t);
    const first = (await find('t1'))!.principal!;
    expect((await find('t1'))!.principal).toBe(first);
    await store.users.upsert({ ...human('u1', 'alice'), displayName: 'Alice Liddell' });
    const replaced = (await find('t1'))!.principal!;
    expect(replaced).not.toBe(first);
    expect(replaced.displayName).toBe('Alice Liddell');
    await store.users.setActive('alice', false);
    const deactivated = (await find('t1'))!.principal!;
    expect([deactivated === replaced, deactivated.active, deactivated.displayName]).toEqual([false, false, 'Alice Liddell']);
  });
});
