// The directory's admin routes on the test store (memory, and PostgreSQL in the second pass): users, groups,
// nested membership, markings, paging, search and bad input (docs/directory.md).
import { describe, expect, it } from 'vitest';
import { bearer, buildTestApp, mintToken, platformError } from '../helpers/app.js';
import { stableUuid } from '../../src/ids.js';
import { seededGroupId } from '../../src/services/admin/seed-refs.js';

const SEED = `
platform:
  users:
    - { username: alice, given_name: Alice, email: alice@example.com }
    - { username: bob, given_name: Bob }
    - { username: carol }
  groups:
    - name: analysts
      description: People who read the data
      members: [alice, { group: leads }]
      attributes: { team: [data] }
    - { name: leads, members: [bob, { group: chiefs }] }
    - { name: chiefs, members: [carol] }
  marking_categories:
    - { id: classification, name: Classification, type: CONJUNCTIVE }
  markings:
    - { id: secret, name: SECRET, category: classification, members: [{ group: analysts }] }
    - { id: topsecret, name: TOP SECRET, category: classification, members: [alice] }
  cbac_banner: { classification: UNCLASSIFIED, text_color: "#fff", background_colors: ["#3a3"] }
`;
const uid = (name: string) => stableUuid(`user:${name}`);
const gid = seededGroupId;

async function setup(scopes = ['api:admin-read', 'api:admin-write']) {
  const t = await buildTestApp({ seed: SEED });
  const token = await mintToken(t.app, 'alice', scopes);
  const get = async (url: string) => t.app.inject({ url, headers: bearer(token) });
  const post = async (url: string, payload: unknown, method: 'POST' | 'PUT' | 'DELETE' = 'POST') =>
    t.app.inject({ method, url, payload: payload as object, headers: bearer(token) });
  return { ...t, token, get, post };
}

describe('admin users', () => {
  it('lists users page by page; the last page has no token', async () => {
    const { get } = await setup();
    const first = (await get('/api/v2/admin/users?pageSize=2')).json();
    expect(first.data.map((u: { username: string }) => u.username)).toEqual(['admin', 'alice']);
    expect(typeof first.nextPageToken).toBe('string');
    const second = (await get(`/api/v2/admin/users?pageSize=2&pageToken=${first.nextPageToken}`)).json();
    expect(second.data.map((u: { username: string }) => u.username)).toEqual(['bob', 'carol']);
    expect(second).not.toHaveProperty('nextPageToken');
  });

  it('refuses a page token of another query with InvalidPageToken', async () => {
    const { get } = await setup();
    const groups = (await get('/api/v2/admin/groups?pageSize=1')).json();
    const res = await get(`/api/v2/admin/users?pageSize=1&pageToken=${groups.nextPageToken}`);
    expect(res.statusCode).toBe(400);
    expect(platformError(res.json())).toMatchObject({ errorName: 'InvalidPageToken', parameters: { pageToken: groups.nextPageToken } });
    expect((await get('/api/v2/admin/users?pageToken=garbage')).json().errorName).toBe('InvalidPageToken');
    expect((await get('/api/v2/admin/users?pageSize=0')).json().errorName).toBe('InvalidPageSize');
  });

  it('gets a user, a batch, and answers UserNotFound for an unknown id', async () => {
    const { get, post } = await setup();
    expect((await get(`/api/v2/admin/users/${uid('bob')}`)).json()).toMatchObject({ id: uid('bob'), username: 'bob', givenName: 'Bob', status: 'ACTIVE' });
    const missing = await get('/api/v2/admin/users/nobody');
    expect(missing.statusCode).toBe(404);
    expect(platformError(missing.json())).toMatchObject({ errorCode: 'NOT_FOUND', errorName: 'UserNotFound', parameters: { userId: 'nobody' } });
    const batch = (await post('/api/v2/admin/users/getBatch', [{ userId: uid('alice') }, { userId: 'nobody' }])).json();
    expect(Object.keys(batch.data)).toEqual([uid('alice')]);
  });

  it('searches by query string, and names an unknown clause in a 400', async () => {
    const { post } = await setup();
    const found = (await post('/api/v2/admin/users/search', { where: { type: 'queryString', value: 'ALI' } })).json();
    expect(found.data.map((u: { username: string }) => u.username)).toEqual(['alice']);
    const bad = await post('/api/v2/admin/users/search', { where: { type: 'queryString', value: 'a', fuzzy: true } });
    expect(bad.statusCode).toBe(400);
    expect(platformError(bad.json())).toMatchObject({ errorName: 'InvalidSearchFilter', parameters: { clause: 'where.fuzzy' } });
    const badType = (await post('/api/v2/admin/users/search', { where: { type: 'regex', value: 'a' } })).json();
    expect(badType.parameters.clause).toBe('where.type=regex');
    expect((await post('/api/v2/admin/users/search', { where: { type: 'queryString', value: 'a' }, orderBy: 'x' })).json().parameters.clause).toBe('orderBy');
  });

  it('follows nested groups for groupMemberships and getMarkings', async () => {
    const { get } = await setup();
    const direct = (await get(`/api/v2/admin/users/${uid('carol')}/groupMemberships`)).json();
    expect(direct.data).toEqual([{ groupId: gid('chiefs') }]);
    const all = (await get(`/api/v2/admin/users/${uid('carol')}/groupMemberships?transitive=true`)).json();
    expect(all.data.map((m: { groupId: string }) => m.groupId).sort()).toEqual([gid('analysts'), gid('chiefs'), gid('leads')].sort());
    expect((await get(`/api/v2/admin/users/${uid('carol')}/getMarkings`)).json()).toEqual({ view: ['secret'] });
    expect((await get(`/api/v2/admin/users/${uid('alice')}/getMarkings`)).json()).toEqual({ view: ['secret', 'topsecret'] });
    expect((await get(`/api/v2/admin/users/${uid('admin')}/getMarkings`)).json()).toEqual({ view: [] });
  });

  it("/idp/api/me names the user's groups, nested ones too, and [] for a user in none", async () => {
    const { app } = await setup();
    const carol = (await app.inject({ url: '/idp/api/me', headers: bearer(await mintToken(app, 'carol')) })).json();
    expect(carol.groups.map((g: { name: string }) => g.name).sort()).toEqual(['analysts', 'chiefs', 'leads']);
    expect(carol.groups).toContainEqual({ id: gid('chiefs'), name: 'chiefs' });
    const admin = (await app.inject({ url: '/idp/api/me', headers: bearer(await mintToken(app, 'admin')) })).json();
    expect(admin.groups).toEqual([]);
  });

  it('profilePicture answers ProfilePictureNotFound when none is set', async () => {
    const { get } = await setup();
    const res = await get(`/api/v2/admin/users/${uid('bob')}/profilePicture`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ errorName: 'ProfilePictureNotFound', parameters: { userId: uid('bob') } });
  });

  it('delete marks the user DELETED and revokes its tokens; include=DELETED lists it', async () => {
    const { app, get, post } = await setup();
    const bobToken = await mintToken(app, 'bob', ['api:admin-read']);
    expect((await app.inject({ url: '/api/v2/admin/users/getCurrent', headers: bearer(bobToken) })).statusCode).toBe(200);
    expect((await post(`/api/v2/admin/users/${uid('bob')}`, undefined, 'DELETE')).statusCode).toBe(204);
    expect((await app.inject({ url: '/api/v2/admin/users/getCurrent', headers: bearer(bobToken) })).statusCode).toBe(401);
    expect((await get(`/api/v2/admin/users/${uid('bob')}`)).json().status).toBe('DELETED');
    expect((await get(`/api/v2/admin/users/${uid('bob')}?status=ACTIVE`)).json().errorName).toBe('UserDeleted');
    const active = (await get('/api/v2/admin/users')).json().data.map((u: { username: string }) => u.username);
    expect(active).not.toContain('bob');
    const all = (await get('/api/v2/admin/users?include=DELETED')).json().data.map((u: { username: string }) => u.username);
    expect(all).toContain('bob');
  });

  it('revokeAllTokens revokes the tokens but keeps the user active', async () => {
    const { app, get, post } = await setup();
    const carolToken = await mintToken(app, 'carol', ['api:admin-read']);
    expect((await post(`/api/v2/admin/users/${uid('carol')}/revokeAllTokens`, {})).statusCode).toBe(204);
    expect((await app.inject({ url: '/api/v2/admin/users/getCurrent', headers: bearer(carolToken) })).statusCode).toBe(401);
    expect((await get(`/api/v2/admin/users/${uid('carol')}`)).json().status).toBe('ACTIVE');
  });

  it('answers 403 with the route error name when the scope is missing', async () => {
    const { app } = await setup();
    const readOnly = await mintToken(app, 'alice', ['api:admin-read']);
    const res = await app.inject({ method: 'DELETE', url: `/api/v2/admin/users/${uid('bob')}`, headers: bearer(readOnly) });
    expect(res.statusCode).toBe(403);
    expect(platformError(res.json())).toMatchObject({ errorName: 'DeleteUserPermissionDenied', parameters: { userId: uid('bob') } });
    const none = await mintToken(app, 'alice', []);
    expect((await app.inject({ url: '/api/v2/admin/users', headers: bearer(none) })).statusCode).toBe(403);
  });
});

describe('admin groups', () => {
  it('gets, lists in name order and searches groups', async () => {
    const { get, post } = await setup();
    expect((await get(`/api/v2/admin/groups/${gid('analysts')}`)).json()).toEqual({
      id: gid('analysts'),
      name: 'analysts',
      description: 'People who read the data',
      realm: 'platform-internal-realm',
      organizations: ['ri.organization.main.organization.default'],
      attributes: { team: ['data'] },
    });
    expect((await get('/api/v2/admin/groups')).json().data.map((g: { name: string }) => g.name)).toEqual(['analysts', 'chiefs', 'leads']);
    expect(
      (await post('/api/v2/admin/groups/search', { where: { type: 'queryString', value: 'lead' } })).json().data.map((g: { name: string }) => g.name),
    ).toEqual(['leads']);
    expect((await get('/api/v2/admin/groups/nope')).json()).toMatchObject({ errorName: 'GroupNotFound', parameters: { groupId: 'nope' } });
  });

  it('lists members directly and transitively', async () => {
    const { get } = await setup();
    const direct = (await get(`/api/v2/admin/groups/${gid('analysts')}/groupMembers`)).json();
    expect(direct.data).toEqual([
      { principalType: 'USER', principalId: uid('alice') },
      { principalType: 'GROUP', principalId: gid('leads') },
    ]);
    const all = (await get(`/api/v2/admin/groups/${gid('analysts')}/groupMembers?transitive=true`)).json();
    expect(all.data.map((m: { principalId: string }) => m.principalId).sort()).toEqual(
      [uid('alice'), gid('leads'), uid('bob'), gid('chiefs'), uid('carol')].sort(),
    );
  });

  it('creates, replaces and deletes a group; a taken name is GroupNameAlreadyExists', async () => {
    const { get, post } = await setup();
    const created = await post('/api/v2/admin/groups', { name: 'ops', organizations: ['ri.organization.main.organization.default'], attributes: {} });
    expect(created.statusCode).toBe(200);
    const id = created.json().id as string;
    expect((await post('/api/v2/admin/groups', { name: 'ops', organizations: ['o'], attributes: {} })).json()).toMatchObject({
      errorName: 'GroupNameAlreadyExists',
      parameters: { groupName: 'ops' },
    });
    expect((await post('/api/v2/admin/groups', { name: 'x', organizations: [], attributes: {} })).json().errorName).toBe('InvalidGroupOrganizations');
    const replaced = await post(`/api/v2/admin/groups/${id}`, { name: 'operations', organizations: ['o'], attributes: { a: ['b'] }, description: 'd' }, 'PUT');
    expect(replaced.json()).toMatchObject({ id, name: 'operations', description: 'd', attributes: { a: ['b'] } });
    expect((await post(`/api/v2/admin/groups/${id}/groupMembers/add`, { principalIds: [uid('bob')] })).statusCode).toBe(204);
    expect((await get(`/api/v2/admin/users/${uid('bob')}/groupMemberships`)).json().data).toContainEqual({ groupId: id });
    expect((await post(`/api/v2/admin/groups/${id}`, undefined, 'DELETE')).statusCode).toBe(204);
    expect((await get(`/api/v2/admin/groups/${id}`)).statusCode).toBe(404);
    expect((await get(`/api/v2/admin/users/${uid('bob')}/groupMemberships`)).json().data).not.toContainEqual({ groupId: id });
  });

  it('refuses a cycle and an unknown member, changing nothing', async () => {
    const { get, post } = await setup();
    const cycle = await post(`/api/v2/admin/groups/${gid('chiefs')}/groupMembers/add`, { principalIds: [gid('analysts')] });
    expect(cycle.statusCode).toBe(400);
    expect(platformError(cycle.json())).toMatchObject({
      errorName: 'CircularDependency',
      parameters: { groupId: gid('chiefs'), principalId: gid('analysts') },
    });
    expect((await post(`/api/v2/admin/groups/${gid('chiefs')}/groupMembers/add`, { principalIds: [gid('chiefs')] })).json().errorName).toBe(
      'CircularDependency',
    );
    const unknown = await post(`/api/v2/admin/groups/${gid('chiefs')}/groupMembers/add`, { principalIds: [uid('alice'), 'ghost'] });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ errorName: 'PrincipalNotFound', parameters: { principalId: 'ghost' } });
    expect((await get(`/api/v2/admin/groups/${gid('chiefs')}/groupMembers`)).json().data).toEqual([{ principalType: 'USER', principalId: uid('carol') }]);
    expect((await post(`/api/v2/admin/groups/${gid('leads')}/groupMembers/remove`, { principalIds: [uid('bob')] })).statusCode).toBe(204);
    expect((await get(`/api/v2/admin/groups/${gid('leads')}/groupMembers`)).json().data).toEqual([{ principalType: 'GROUP', principalId: gid('chiefs') }]);
  });
});

describe('admin markings', () => {
  it('lists, gets markings and categories; members need api:admin-write', async () => {
    const { app, get } = await setup();
    expect((await get('/api/v2/admin/markings')).json().data.map((m: { id: string }) => m.id)).toEqual(['secret', 'topsecret']);
    expect((await get('/api/v2/admin/markings/secret')).json()).toMatchObject({ id: 'secret', name: 'SECRET', categoryId: 'classification' });
    expect((await get('/api/v2/admin/markings/nope')).json()).toMatchObject({ errorName: 'MarkingNotFound', parameters: { markingId: 'nope' } });
    expect((await get('/api/v2/admin/markingCategories/classification')).json()).toMatchObject({
      id: 'classification',
      categoryType: 'CONJUNCTIVE',
      markingType: 'MANDATORY',
      markings: ['secret', 'topsecret'],
    });
    expect((await get('/api/v2/admin/markingCategories/nope')).json().errorName).toBe('MarkingCategoryNotFound');
    const members = (await get('/api/v2/admin/markings/secret/markingMembers?transitive=true')).json();
    expect(members.data.map((m: { principalId: string }) => m.principalId)).toContain(uid('carol'));
    const readOnly = await mintToken(app, 'alice', ['api:admin-read']);
    const denied = await app.inject({ url: '/api/v2/admin/markings/secret/markingMembers', headers: bearer(readOnly) });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ errorName: 'ListMarkingMembersPermissionDenied', parameters: { markingId: 'secret' } });
  });

  it('adds and removes marking members', async () => {
    const { get, post } = await setup();
    expect((await post('/api/v2/admin/markings/topsecret/markingMembers/add', { principalIds: [uid('bob')] })).statusCode).toBe(204);
    expect((await get(`/api/v2/admin/users/${uid('bob')}/getMarkings`)).json().view).toEqual(['secret', 'topsecret']);
    expect((await post('/api/v2/admin/markings/topsecret/markingMembers/remove', { principalIds: [uid('bob')] })).statusCode).toBe(204);
    expect((await get(`/api/v2/admin/users/${uid('bob')}/getMarkings`)).json().view).toEqual(['secret']);
  });

  it('answers the CBAC banner and marking restrictions', async () => {
    const { get } = await setup();
    expect((await get('/api/v2/admin/cbacBanner?markingIds=secret&markingIds=unknown')).json()).toEqual({
      classificationString: 'UNCLASSIFIED',
      markings: ['secret'],
      textColor: '#fff',
      backgroundColors: ['#3a3'],
    });
    expect((await get('/api/v2/admin/cbacMarkingRestrictions?markingIds=topsecret')).json()).toMatchObject({ userSatisfiesMarkings: true, isValid: true });
    expect((await get('/api/v2/admin/cbacMarkingRestrictions?markingIds=nope')).json()).toMatchObject({ userSatisfiesMarkings: false, isValid: false });
  });
});

describe('directory control listing', () => {
  it('shows each person with their groups (nested too) and markings', async () => {
    const { app } = await setup();
    const people = (await app.inject({ url: '/_emulate/platform/directory/people?q=carol' })).json();
    expect(people.items).toEqual([{ username: 'carol', id: uid('carol'), active: true, groups: 'analysts, chiefs, leads', markings: 'secret' }]);
    const paged = (await app.inject({ url: '/_emulate/platform/directory/people?pageSize=2' })).json();
    expect(paged.items).toHaveLength(2);
    expect(typeof paged.nextPageToken).toBe('string');
  });

  it('creates, replaces and removes groups at run time, refusing unknown members and cycles', async () => {
    const { app, get } = await setup();
    const made = await app.inject({
      method: 'PUT',
      url: '/_emulate/platform/groups/ops',
      payload: { members: ['bob', { group: 'chiefs' }], description: 'Ops' },
    });
    expect(made.statusCode).toBe(200);
    expect(made.json()).toMatchObject({ created: true, group: { id: gid('ops'), name: 'ops' } });
    expect((await get(`/api/v2/admin/groups/${gid('ops')}/groupMembers`)).json().data).toHaveLength(2);
    const replaced = await app.inject({ method: 'PUT', url: '/_emulate/platform/groups/ops', payload: { members: ['alice'] } });
    expect(replaced.json().created).toBe(false);
    expect((await get(`/api/v2/admin/groups/${gid('ops')}/groupMembers`)).json().data).toEqual([{ principalType: 'USER', principalId: uid('alice') }]);
    const unknown = await app.inject({ method: 'PUT', url: '/_emulate/platform/groups/ops', payload: { members: ['ghost'] } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().parameters).toEqual({ field: 'members[0]' });
    const cycle = await app.inject({ method: 'PUT', url: '/_emulate/platform/groups/chiefs', payload: { members: [{ group: 'analysts' }] } });
    expect(cycle.statusCode).toBe(400);
    expect(cycle.json().errorDescription).toContain('cannot contain itself');
    expect((await app.inject({ method: 'DELETE', url: '/_emulate/platform/groups/ops' })).statusCode).toBe(200);
    expect((await get(`/api/v2/admin/groups/${gid('ops')}`)).statusCode).toBe(404);
  });
});
