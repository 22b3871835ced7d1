// Conformance: @osdk/foundry.admin 2.38.0 and @osdk/foundry.filesystem 2.78.0 through createPlatformClient
// against a live server: users, groups, members, markings, the tree, paging across pages, the error types of
// unknown ids and the 403 of a missing scope (docs/directory.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatformClient } from '@osdk/client';
import { GroupMembers, GroupMemberships, Groups, MarkingCategories, MarkingMembers, Markings, Users } from '@osdk/foundry.admin';
import { Folders, Projects, Resources, Spaces } from '@osdk/foundry.filesystem';
import { startEmulator, type Emulator } from '../../src/index.js';
import { stableUuid } from '../../src/ids.js';

let emulator: Emulator;
const USERS = 25;

async function client(scopes: string[]) {
  const res = await fetch(`${emulator.url}/_emulate/platform/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'alice', scopes }),
  });
  const token = ((await res.json()) as { access_token: string }).access_token;
  return createPlatformClient(emulator.url, async () => token);
}
const ALL = ['api:admin-read', 'api:admin-write', 'api:filesystem-read', 'api:filesystem-write'];
const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as Record<string, unknown>,
  );

beforeAll(async () => {
  const extra = Array.from({ length: USERS - 2 }, (_, i) => `    - { username: user${String(i).padStart(2, '0')} }`).join('\n');
  emulator = await startEmulator({
    seed: `
platform:
  users:
    - { username: alice, given_name: Alice, email: alice@example.com }
${extra}
  groups:
    - { name: analysts, members: [alice, { group: leads }] }
    - { name: leads, members: [user00] }
  marking_categories: [{ id: classification, name: Classification }]
  markings: [{ id: secret, name: SECRET, category: classification, members: [{ group: analysts }] }]
  spaces: [{ rid: ri.compass.main.folder.space-main, name: Main }]
  projects: [{ rid: ri.compass.main.folder.proj, name: Demo, space: ri.compass.main.folder.space-main }]
  folders: [{ rid: ri.compass.main.folder.data, name: data, parent: ri.compass.main.folder.proj }]
  resources: [{ rid: ri.foundry.main.dataset.sales, name: sales, parent: ri.compass.main.folder.data }]
`,
  });
});
afterAll(() => emulator.close());

describe('platform SDK: admin directory', () => {
  it('Users.list pages across pages to every user', async () => {
    const c = await client(ALL);
    const seen: string[] = [];
    let pageToken: string | undefined;
    for (let i = 0; i < 10; i++) {
      const page = await Users.list(c, { pageSize: 10, ...(pageToken ? { pageToken } : {}) });
      seen.push(...page.data.map((u) => u.username));
      pageToken = page.nextPageToken;
      if (!pageToken) break;
    }
    expect(seen).toHaveLength(USERS); // the seeded users and the default admin
    expect(new Set(seen).size).toBe(USERS);
    expect(seen).toContain('alice');
  });

  it('Users.get, getBatch, search, getMarkings, groupMemberships and the errors of unknown ids', async () => {
    const c = await client(ALL);
    const alice = stableUuid('user:alice');
    expect(await Users.get(c, alice)).toMatchObject({ username: 'alice', givenName: 'Alice', status: 'ACTIVE' });
    expect(Object.keys((await Users.getBatch(c, [{ userId: alice }])).data)).toEqual([alice]);
    expect((await Users.search(c, { where: { type: 'queryString', value: 'alice' } })).data.map((u) => u.username)).toEqual(['alice']);
    expect(await Users.getMarkings(c, stableUuid('user:user00'))).toEqual({ view: ['secret'] });
    const memberships = await GroupMemberships.list(c, stableUuid('user:user00'), { transitive: true });
    expect(memberships.data).toHaveLength(2);
    expect(await failure(Users.get(c, 'nobody'))).toMatchObject({ statusCode: 404, errorName: 'UserNotFound', parameters: { userId: 'nobody' } });
    const picture = await failure(Users.profilePicture(c, alice));
    expect(picture).toMatchObject({ statusCode: 404, errorName: 'ProfilePictureNotFound' });
  });

  it('Groups and GroupMembers: create, get, list, members add and remove, delete', async () => {
    const c = await client(ALL);
    const group = await Groups.create(c, { name: 'ops', organizations: ['ri.organization.main.organization.default'], attributes: {} });
    expect(await Groups.get(c, group.id)).toEqual(group);
    expect((await Groups.list(c, { pageSize: 2 })).nextPageToken).toBeDefined();
    expect((await Groups.search(c, { where: { type: 'queryString', value: 'op' } })).data.map((g) => g.name)).toEqual(['ops']);
    await GroupMembers.add(c, group.id, { principalIds: [stableUuid('user:user01')] });
    expect((await GroupMembers.list(c, group.id)).data).toEqual([{ principalType: 'USER', principalId: stableUuid('user:user01') }]);
    await GroupMembers.remove(c, group.id, { principalIds: [stableUuid('user:user01')] });
    expect((await GroupMembers.list(c, group.id)).data).toEqual([]);
    expect(Object.keys((await Groups.getBatch(c, [{ groupId: group.id }, { groupId: 'x' }])).data)).toEqual([group.id]);
    await Groups.deleteGroup(c, group.id);
    expect(await failure(Groups.get(c, group.id))).toMatchObject({ statusCode: 404, errorName: 'GroupNotFound' });
    expect(await failure(GroupMembers.add(c, 'nope', { principalIds: [] }))).toMatchObject({ errorName: 'GroupNotFound' });
  });

  it('Markings, MarkingCategories and MarkingMembers', async () => {
    const c = await client(ALL);
    expect((await Markings.list(c)).data.map((m) => m.id)).toEqual(['secret']);
    expect(await Markings.get(c, 'secret')).toMatchObject({ name: 'SECRET', categoryId: 'classification' });
    expect(await MarkingCategories.get(c, 'classification')).toMatchObject({ markings: ['secret'], categoryType: 'CONJUNCTIVE' });
    const members = await MarkingMembers.list(c, 'secret', { transitive: true });
    expect(members.data.map((m) => m.principalId)).toContain(stableUuid('user:user00'));
    expect(await failure(Markings.get(c, 'nope'))).toMatchObject({ statusCode: 404, errorName: 'MarkingNotFound' });
    expect(await failure(MarkingCategories.get(c, 'nope'))).toMatchObject({ statusCode: 404, errorName: 'MarkingCategoryNotFound' });
  });

  it('a missing scope is a 403 with the route error name', async () => {
    const c = await client(['api:admin-read']);
    expect(await failure(Users.deleteUser(c, stableUuid('user:user02')))).toMatchObject({ statusCode: 403, errorName: 'DeleteUserPermissionDenied' });
    expect(await failure(MarkingMembers.list(c, 'secret'))).toMatchObject({ statusCode: 403, errorName: 'ListMarkingMembersPermissionDenied' });
    const none = await client([]);
    expect(await failure(Users.list(none))).toMatchObject({ statusCode: 403 });
  });
});

describe('platform SDK: filesystem', () => {
  it('Resources.getByPath, get, getBatch, getByPathBatch and markings', async () => {
    const c = await client(ALL);
    const sales = await Resources.getByPath(c, { path: '/Main/Demo/data/sales' });
    expect(sales).toMatchObject({
      rid: 'ri.foundry.main.dataset.sales',
      type: 'FOUNDRY_DATASET',
      trashStatus: 'NOT_TRASHED',
      projectRid: 'ri.compass.main.folder.proj',
    });
    expect(await Resources.get(c, sales.rid)).toEqual(sales);
    expect(Object.keys((await Resources.getBatch(c, [{ resourceRid: sales.rid }])).data)).toEqual([sales.rid]);
    expect((await Resources.getByPathBatch(c, [{ path: '/Main/Demo/data/sales' }])).data).toEqual([sales]);
    expect(await Resources.markings(c, sales.rid)).toEqual({ data: [] });
    expect(await failure(Resources.get(c, 'ri.nope'))).toMatchObject({ statusCode: 404, errorName: 'ResourceNotFound' });
    expect(await failure(Resources.getByPath(c, { path: '/Main/none' }))).toMatchObject({ statusCode: 404, errorName: 'PathNotFound' });
  });

  it('Resources.deleteResource, restore and permanentlyDelete', async () => {
    const c = await client(ALL);
    // A folder is a resource too: its rid works with the Resource routes.
    const folder = { rid: (await Folders.create(c, { parentFolderRid: 'ri.compass.main.folder.data', displayName: 'scratch' })).rid as string };
    await Resources.deleteResource(c, folder.rid);
    expect((await Resources.get(c, folder.rid)).trashStatus).toBe('DIRECTLY_TRASHED');
    await Resources.restore(c, folder.rid);
    expect((await Resources.get(c, folder.rid)).trashStatus).toBe('NOT_TRASHED');
    expect(await failure(Resources.permanentlyDelete(c, folder.rid))).toMatchObject({ errorName: 'ResourceNotTrashed' });
    await Resources.deleteResource(c, folder.rid);
    await Resources.permanentlyDelete(c, folder.rid);
    expect(await failure(Resources.get(c, folder.rid))).toMatchObject({ errorName: 'ResourceNotFound' });
  });

  it('Folders, Projects and Spaces', async () => {
    const c = await client(ALL);
    expect(await Folders.get(c, 'ri.compass.main.folder.data')).toMatchObject({ type: 'FOLDER', path: '/Main/Demo/data' });
    const children = await Folders.children(c, 'ri.compass.main.folder.data', { pageSize: 1 });
    expect(children.data.map((r) => r.displayName)).toEqual(['sales']);
    expect(Object.keys((await Folders.getBatch(c, [{ folderRid: 'ri.compass.main.folder.data' }])).data)).toEqual(['ri.compass.main.folder.data']);
    expect(await Projects.get(c, 'ri.compass.main.folder.proj')).toMatchObject({ displayName: 'Demo', spaceRid: 'ri.compass.main.folder.space-main' });
    const made = await Projects.create(c, {
      displayName: 'New',
      spaceRid: 'ri.compass.main.folder.space-main',
      roleGrants: {},
      defaultRoles: [],
      organizationRids: [],
    });
    expect(made.path).toBe('/Main/New');
    expect((await Spaces.list(c)).data.map((s) => s.displayName)).toEqual(['Main']);
    expect(await Spaces.get(c, 'ri.compass.main.folder.space-main')).toMatchObject({ displayName: 'Main' });
    expect(await failure(Folders.get(c, 'ri.nope'))).toMatchObject({ statusCode: 404, errorName: 'FolderNotFound' });
    expect(await failure(Projects.get(c, 'ri.nope'))).toMatchObject({ statusCode: 404, errorName: 'ProjectNotFound' });
    const readOnly = await client(['api:filesystem-read']);
    expect(await failure(Resources.deleteResource(readOnly, 'ri.foundry.main.dataset.sales'))).toMatchObject({
      statusCode: 403,
      errorName: 'DeleteResourcePermissionDenied',
    });
  });
});
