// The filesystem's routes on the test store (memory, and PostgreSQL in the second pass): the tree, paths,
// trash semantics, markings and the default folders of older seeds (docs/directory.md).
import { describe, expect, it } from 'vitest';
import { bearer, buildTestApp, mintToken, platformError } from '../helpers/app.js';
import { DEFAULT_PROJECT_RID } from '../../src/services/filesystem/seed.js';

const SEED = `
platform:
  users: [{ username: alice }]
  marking_categories: [{ id: classification, name: Classification }]
  markings: [{ id: secret, name: SECRET, category: classification }, { id: pii, name: PII, category: classification }]
  spaces: [ { rid: ri.compass.main.folder.space-main, name: Main } ]
  projects: [ { rid: ri.compass.main.folder.proj, name: Demo, space: ri.compass.main.folder.space-main, markings: [secret] } ]
  folders:
    - { rid: ri.compass.main.folder.deep, name: deep, parent: ri.compass.main.folder.data }
    - { rid: ri.compass.main.folder.data, name: data, parent: ri.compass.main.folder.proj }
  resources:
    - { rid: ri.foundry.main.dataset.sales, name: sales, parent: ri.compass.main.folder.data, markings: [pii] }
    - { rid: ri.foundry.main.dataset.raw, name: raw, parent: ri.compass.main.folder.deep }
  connections:
    - { display_name: Legacy, parent_folder_rid: ri.compass.main.folder.legacy-home }
`;

async function setup(scopes = ['api:filesystem-read', 'api:filesystem-write']) {
  const t = await buildTestApp({ seed: SEED });
  const token = await mintToken(t.app, 'alice', scopes);
  const get = async (url: string) => t.app.inject({ url, headers: bearer(token) });
  const post = async (url: string, payload?: unknown, method: 'POST' | 'DELETE' = 'POST') =>
    t.app.inject({ method, url, ...(payload !== undefined ? { payload: payload as object } : {}), headers: bearer(token) });
  return { ...t, get, post };
}
const byPath = (path: string) => `/api/v2/filesystem/resources/getByPath?path=${encodeURIComponent(path)}`;

describe('filesystem resources', () => {
  it('gets a resource with its path, parents and trash status', async () => {
    const { get } = await setup();
    const res = await get('/api/v2/filesystem/resources/ri.foundry.main.dataset.sales');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      rid: 'ri.foundry.main.dataset.sales',
      displayName: 'sales',
      path: '/Main/Demo/data/sales',
      type: 'FOUNDRY_DATASET',
      trashStatus: 'NOT_TRASHED',
      parentFolderRid: 'ri.compass.main.folder.data',
      projectRid: 'ri.compass.main.folder.proj',
      spaceRid: 'ri.compass.main.folder.space-main',
    });
    const missing = await get('/api/v2/filesystem/resources/ri.nope');
    expect(missing.statusCode).toBe(404);
    expect(platformError(missing.json())).toMatchObject({ errorName: 'ResourceNotFound', parameters: { resourceRid: 'ri.nope' } });
  });

  it('finds any node by path, and answers PathNotFound and InvalidPath', async () => {
    const { get, post } = await setup();
    expect((await get(byPath('/Main/Demo/data/deep/raw'))).json().rid).toBe('ri.foundry.main.dataset.raw');
    expect((await get(byPath('/Main/Demo'))).json()).toMatchObject({ rid: 'ri.compass.main.folder.proj', type: 'COMPASS_FOLDER' });
    expect((await get(byPath('/Main/Demo/nothing'))).json()).toMatchObject({ errorName: 'PathNotFound', parameters: { path: '/Main/Demo/nothing' } });
    expect((await get(byPath('Main//x'))).json().errorName).toBe('InvalidPath');
    const batch = (await post('/api/v2/filesystem/resources/getByPathBatch', [{ path: '/Main/Demo/data/sales' }, { path: '/Main/none' }])).json();
    expect(batch.data.map((r: { rid: string }) => r.rid)).toEqual(['ri.foundry.main.dataset.sales']);
    const rids = (await post('/api/v2/filesystem/resources/getBatch', [{ resourceRid: 'ri.foundry.main.dataset.raw' }, { resourceRid: 'x' }])).json();
    expect(Object.keys(rids.data)).toEqual(['ri.foundry.main.dataset.raw']);
  });

  it('lists markings applied to a resource and inherited from above; adds and removes them', async () => {
    const { get, post } = await setup();
    expect((await get('/api/v2/filesystem/resources/ri.foundry.main.dataset.sales/markings')).json()).toEqual({ data: ['pii', 'secret'] });
    expect((await get('/api/v2/filesystem/resources/ri.foundry.main.dataset.raw/markings')).json()).toEqual({ data: ['secret'] });
    expect((await post('/api/v2/filesystem/resources/ri.foundry.main.dataset.raw/addMarkings', { markingIds: ['nope'] })).json()).toMatchObject({
      errorName: 'MarkingNotFound',
    });
    expect((await post('/api/v2/filesystem/resources/ri.foundry.main.dataset.raw/addMarkings', { markingIds: ['pii'] })).statusCode).toBe(204);
    expect((await get('/api/v2/filesystem/resources/ri.foundry.main.dataset.raw/markings')).json()).toEqual({ data: ['pii', 'secret'] });
    expect((await post('/api/v2/filesystem/resources/ri.foundry.main.dataset.raw/removeMarkings', { markingIds: ['pii'] })).statusCode).toBe(204);
    expect((await get('/api/v2/filesystem/resources/ri.foundry.main.dataset.raw/markings')).json()).toEqual({ data: ['secret'] });
  });

  it('deleting a folder that holds resources trashes it and them; restore brings all back', async () => {
    const { get, post } = await setup();
    expect((await post('/api/v2/filesystem/resources/ri.compass.main.folder.data', undefined, 'DELETE')).statusCode).toBe(204);
    expect((await get('/api/v2/filesystem/resources/ri.compass.main.folder.data')).json().trashStatus).toBe('DIRECTLY_TRASHED');
    expect((await get('/api/v2/filesystem/resources/ri.foundry.main.dataset.raw')).json().trashStatus).toBe('ANCESTOR_TRASHED');
    expect((await get(byPath('/Main/Demo/data/sales'))).statusCode).toBe(404);
    expect((await get('/api/v2/filesystem/folders/ri.compass.main.folder.proj/children')).json().data).toEqual([]);
    const notDirect = await post('/api/v2/filesystem/resources/ri.foundry.main.dataset.sales/restore');
    expect(platformError(notDirect.json())).toMatchObject({
      errorName: 'ResourceNotDirectlyTrashed',
      parameters: { resourceRid: 'ri.foundry.main.dataset.sales' },
    });
    expect((await post('/api/v2/filesystem/resources/ri.compass.main.folder.data/restore')).statusCode).toBe(204);
    expect((await get(byPath('/Main/Demo/data/deep/raw'))).json().trashStatus).toBe('NOT_TRASHED');
    expect((await post('/api/v2/filesystem/resources/ri.compass.main.folder.data/restore')).json().errorName).toBe('ResourceNotTrashed');
  });

  it('permanently deletes only from the trash, with everything below', async () => {
    const { get, post } = await setup();
    expect((await post('/api/v2/filesystem/resources/ri.compass.main.folder.deep/permanentlyDelete')).json().errorName).toBe('ResourceNotTrashed');
    await post('/api/v2/filesystem/resources/ri.compass.main.folder.deep', undefined, 'DELETE');
    expect((await post('/api/v2/filesystem/resources/ri.compass.main.folder.deep/permanentlyDelete')).statusCode).toBe(204);
    expect((await get('/api/v2/filesystem/resources/ri.compass.main.folder.deep')).statusCode).toBe(404);
    expect((await get('/api/v2/filesystem/resources/ri.foundry.main.dataset.raw')).statusCode).toBe(404);
    expect((await get('/api/v2/filesystem/resources/ri.foundry.main.dataset.sales')).statusCode).toBe(200);
  });

  it('refuses to trash a space, and 403s without the write scope', async () => {
    const { app, post } = await setup();
    expect((await post('/api/v2/filesystem/resources/ri.compass.main.folder.space-main', undefined, 'DELETE')).json().errorName).toBe(
      'TrashingSpaceNotSupported',
    );
    const readOnly = await mintToken(app, 'alice', ['api:filesystem-read']);
    const res = await app.inject({ method: 'DELETE', url: '/api/v2/filesystem/resources/ri.foundry.main.dataset.sales', headers: bearer(readOnly) });
    expect(res.statusCode).toBe(403);
    expect(platformError(res.json())).toMatchObject({
      errorName: 'DeleteResourcePermissionDenied',
      parameters: { resourceRid: 'ri.foundry.main.dataset.sales' },
    });
  });
});

describe('filesystem folders, projects and spaces', () => {
  it('creates folders, refuses a taken name, and pages children', async () => {
    const { get, post } = await setup();
    const made = await post('/api/v2/filesystem/folders', { parentFolderRid: 'ri.compass.main.folder.data', displayName: 'new' });
    expect(made.statusCode).toBe(200);
    expect(made.json()).toMatchObject({
      displayName: 'new',
      path: '/Main/Demo/data/new',
      type: 'FOLDER',
      projectRid: 'ri.compass.main.folder.proj',
      parentFolderRid: 'ri.compass.main.folder.data',
    });
    const taken = await post('/api/v2/filesystem/folders', { parentFolderRid: 'ri.compass.main.folder.data', displayName: 'sales' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ errorName: 'ResourceNameAlreadyExists', parameters: { displayName: 'sales' } });
    for (const displayName of ['', '..', 'a/b', 'n'.repeat(701)]) {
      const bad = await post('/api/v2/filesystem/folders', { parentFolderRid: 'ri.compass.main.folder.data', displayName });
      expect([bad.statusCode, bad.json().errorName]).toEqual([400, 'InvalidDisplayName']);
    }
    expect((await post('/api/v2/filesystem/folders', { parentFolderRid: 'ri.compass.main.folder.space-main', displayName: 'x' })).json().errorName).toBe(
      'CreateFolderOutsideProjectNotSupported',
    );
    expect((await post('/api/v2/filesystem/folders', { parentFolderRid: 'ri.none', displayName: 'x' })).json()).toMatchObject({
      errorName: 'FolderNotFound',
      parameters: { folderRid: 'ri.none' },
    });
    const first = (await get('/api/v2/filesystem/folders/ri.compass.main.folder.data/children?pageSize=2')).json();
    expect(first.data.map((r: { displayName: string }) => r.displayName)).toEqual(['deep', 'new']);
    const second = (await get(`/api/v2/filesystem/folders/ri.compass.main.folder.data/children?pageSize=2&pageToken=${first.nextPageToken}`)).json();
    expect(second.data.map((r: { displayName: string }) => r.displayName)).toEqual(['sales']);
    const foreign = await get(`/api/v2/filesystem/folders/ri.compass.main.folder.proj/children?pageToken=${first.nextPageToken}`);
    expect(foreign.json().errorName).toBe('InvalidPageToken');
  });

  it('gets folders, projects and spaces; creates a project', async () => {
    const { get, post } = await setup();
    expect((await get('/api/v2/filesystem/folders/ri.compass.main.folder.proj')).json()).toMatchObject({
      type: 'PROJECT',
      path: '/Main/Demo',
      spaceRid: 'ri.compass.main.folder.space-main',
    });
    expect((await get('/api/v2/filesystem/projects/ri.compass.main.folder.proj')).json()).toMatchObject({ displayName: 'Demo', trashStatus: 'NOT_TRASHED' });
    expect((await get('/api/v2/filesystem/projects/ri.compass.main.folder.data')).json().errorName).toBe('ProjectNotFound');
    expect((await get('/api/v2/filesystem/spaces')).json().data.map((s: { displayName: string }) => s.displayName)).toEqual(['Default', 'Main']);
    expect((await get('/api/v2/filesystem/spaces/ri.nope')).json().errorName).toBe('SpaceNotFound');
    const body = { displayName: 'Second', spaceRid: 'ri.compass.main.folder.space-main', roleGrants: {}, defaultRoles: [], organizationRids: [] };
    const project = await post('/api/v2/filesystem/projects/create', body);
    expect(project.json()).toMatchObject({ displayName: 'Second', path: '/Main/Second' });
    expect((await post('/api/v2/filesystem/projects/create', body)).json().errorName).toBe('ProjectNameAlreadyExists');
  });

  it('makes a folder for a parent_folder_rid nothing declares, in the default space and project', async () => {
    const { get } = await setup();
    const home = (await get('/api/v2/filesystem/folders/ri.compass.main.folder.legacy-home')).json();
    expect(home).toMatchObject({ displayName: 'legacy-home', path: '/Default/Default/legacy-home', parentFolderRid: DEFAULT_PROJECT_RID });
  });

  it('the control listing shows the tree in path order with trash and markings', async () => {
    const { app, post } = await setup();
    await post('/api/v2/filesystem/resources/ri.compass.main.folder.deep', undefined, 'DELETE');
    const listing = (await app.inject({ url: '/_emulate/platform/filesystem/tree?q=/main/' })).json();
    expect(listing.items.map((r: { path: string }) => r.path)).toEqual([
      '/Main/Demo',
      '/Main/Demo/data',
      '/Main/Demo/data/deep',
      '/Main/Demo/data/deep/raw',
      '/Main/Demo/data/sales',
    ]);
    expect(listing.items[2]).toMatchObject({ kind: 'FOLDER', trashStatus: 'DIRECTLY_TRASHED', markings: 'secret' });
    expect(listing.items[3]).toMatchObject({ trashStatus: 'ANCESTOR_TRASHED' });
  });
});
