// The users repository: a contract every store meets (memory, and PostgreSQL in the second pass).
import { afterEach, describe, expect, it } from 'vitest';
import type { Store, UserRecord } from '../../src/store/store.js';
import { TEST_STORE, openTestStore } from '../helpers/store.js';
import { MemoryUsers } from '../../src/store/memory/users.js';

let store: Store | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

const user = (username: string, extra: Partial<UserRecord> = {}): UserRecord => ({
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

describe(`users.servicePrincipalFor (${TEST_STORE ? 'postgres' : 'memory'} store)`, () => {
  it('finds the first seeded service user of a client, follows its activation, and forgets it on clear', async () => {
    store = await openTestStore();
    const users = store.users;
    const create = () => user('made', { principalType: 'service' });
    await users.insert(user('human-bot', { oauthClientId: 'app' })); // a human never stands for a client
    await users.insert(user('bot', { principalType: 'service', oauthClientId: 'app' }));
    await users.insert(user('bot2', { principalType: 'service', oauthClientId: 'app' }));
    expect((await users.servicePrincipalFor('app', create)).username).toBe('bot');

    await users.setActive('bot', false);
    expect(await users.servicePrincipalFor('app', create)).toMatchObject({ username: 'bot', active: false });

    await store.clear();
    expect((await users.servicePrincipalFor('app', create)).username).toBe('made');
  });

  it('makes one principal per client when no service user names it', async () => {
    store = await openTestStore();
    const users = store.users;
    let made = 0;
    const create = () => user(`p${++made}`, { principalType: 'service' });
    const first = await users.servicePrincipalFor('other', create);
    expect(await users.servicePrincipalFor('other', create)).toEqual(first);
    expect(made).toBe(1);
  });
});

describe('MemoryUsers.servicePrincipalFor with a cap', () => {
  it('refuses a new principal past max, still returns existing ones and seeded service users, and counts only capped ones', async () => {
    const users = new MemoryUsers();
    const create = (name: string) => () => user(name, { principalType: 'service' });
    await users.insert(user('bot', { principalType: 'service', oauthClientId: 'seeded' }));
    await users.servicePrincipalFor('uncapped', create('uncapped')); // a seeded client's principal: no max, never counted
    await users.servicePrincipalFor('a', create('a'), 2);
    await users.servicePrincipalFor('b', create('b'), 2);
    await expect(users.servicePrincipalFor('c', create('c'), 2)).rejects.toMatchObject({ name: 'StoreFull', max: 2 });
    expect(await users.byId('id-c')).toBeUndefined();
    expect((await users.servicePrincipalFor('a', create('x'), 2)).username).toBe('a');
    expect((await users.servicePrincipalFor('seeded', create('x'), 2)).username).toBe('bot');
    users.clear();
    await users.servicePrincipalFor('c', create('c'), 2);
    expect((await users.byId('id-c'))?.username).toBe('c');
  });
});
