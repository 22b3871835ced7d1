// Other services' resources in the filesystem's tree (docs/directory.md, "Other services' resources"): datasets,
// streams and connections are found by rid and path and listed in their folders as soon as their service has
// them; the tree may trash and mark them, but deleting them for good is their owner's business.
import { describe, expect, it } from 'vitest';
import { bearer, buildTestApp, mintToken, platformError } from '../helpers/app.js';

const DATA = 'ri.compass.main.folder.data';
const SEED = `
platform:
  users: [{ username: alice }]
  spaces: [ { rid: ri.compass.main.folder.space-main, name: Main } ]
  projects: [ { rid: ri.compass.main.folder.proj, name: Demo, space: ri.compass.main.folder.space-main } ]
  folders: [ { rid: ${DATA}, name: data, parent: ri.compass.main.folder.proj } ]
  datasets:
    - { rid: ri.foundry.main.dataset.orders, name: orders, parent_folder_rid: ${DATA} }
  connections:
    - { rid: ri.magritte..source.crm, display_name: CRM, parent_folder_rid: ${DATA} }
`;
const SCOPES = ['api:filesystem-read', 'api:filesystem-write', 'api:datasets-read', 'api:datasets-write', 'api:streams-write', 'api:streams-read'];
const byPath = (path: string) => `/api/v2/filesystem/resources/getByPath?path=${encodeURIComponent(path)}`;

async function setup() {
  const t = await buildTestApp({ seed: SEED });
  const token = await mintToken(t.app, 'alice', SCOPES);
  const call = async (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url, ...(payload !== undefined ? { payload: payload as object } : {}), headers: bearer(token) });
  return {
    ...t,
    get: (url: string) => call('GET', url),
    post: (url: string, payload?: unknown) => call('POST', url, payload),
    del: (url: string) => call('DELETE', url),
  };
}

describe('resources kept by other services', () => {
  it('finds a seeded dataset and connection by rid and by path, typed by their service', async () => {
    const { get } = await setup();
    const dataset = await get('/api/v2/filesystem/resources/ri.foundry.main.dataset.orders');
    expect(dataset.statusCode).toBe(200);
    expect(dataset.json()).toMatchObject({
      displayName: 'orders',
      path: '/Main/Demo/data/orders',
      type: 'FOUNDRY_DATASET',
      parentFolderRid: DATA,
      trashStatus: 'NOT_TRASHED',
    });
    expect((await get(byPath('/Main/Demo/data/CRM'))).json()).toMatchObject({ rid: 'ri.magritte..source.crm', type: 'MAGRITTE_SOURCE' });
    const children = (await get(`/api/v2/filesystem/folders/${DATA}/children`)).json() as { data: Array<{ displayName: string }> };
    expect(children.data.map((c) => c.displayName)).toEqual(['CRM', 'orders']);
  });

  it('shows a dataset or a stream the moment its service creates it', async () => {
    const { get, post } = await setup();
    const created = await post('/api/v2/datasets', { name: 'fresh', parentFolderRid: DATA });
    expect(created.statusCode).toBe(200);
    expect((await get(byPath('/Main/Demo/data/fresh'))).json().rid).toBe(created.json().rid);
    const stream = await post('/api/v2/streams/datasets/create', {
      name: 'events',
      parentFolderRid: DATA,
      schema: { fields: [{ name: 'x', schema: { nullable: true, dataType: { type: 'string' } } }] },
    });
    expect(stream.statusCode).toBe(200);
    expect((await get(byPath('/Main/Demo/data/events'))).json()).toMatchObject({ rid: stream.json().rid, type: 'FOUNDRY_DATASET' });
  });

  it('trashes and restores another service’s resource without touching it, and leaves its deletion to its owner', async () => {
    const { get, post, del } = await setup();
    const rid = 'ri.foundry.main.dataset.orders';
    expect((await del(`/api/v2/filesystem/resources/${rid}`)).statusCode).toBe(204);
    expect((await get(`/api/v2/filesystem/resources/${rid}`)).json().trashStatus).toBe('DIRECTLY_TRASHED');
    expect((await get(byPath('/Main/Demo/data/orders'))).json().errorName).toBe('PathNotFound');
    // The owner still serves it: the trash is the tree's view of it.
    expect((await get(`/api/v2/datasets/${rid}`)).json()).toMatchObject({ rid, name: 'orders' });

    const forGood = await post(`/api/v2/filesystem/resources/${rid}/permanentlyDelete`);
    expect(forGood.statusCode).toBe(403);
    expect(platformError(forGood.json())).toMatchObject({ errorName: 'PermanentlyDeleteResourcePermissionDenied', parameters: { resourceRid: rid } });
    expect((await post(`/api/v2/filesystem/resources/${rid}/restore`)).statusCode).toBe(204);
    expect((await get(byPath('/Main/Demo/data/orders'))).json().rid).toBe(rid);

    // A folder holding one cannot be deleted for good either, and nothing of it is lost.
    expect((await del(`/api/v2/filesystem/resources/${DATA}`)).statusCode).toBe(204);
    expect((await post(`/api/v2/filesystem/resources/${DATA}/permanentlyDelete`)).json().errorName).toBe('PermanentlyDeleteResourcePermissionDenied');
    expect((await get(`/api/v2/filesystem/resources/${rid}`)).json().trashStatus).toBe('ANCESTOR_TRASHED');
  });

  it('lists them in the dashboard tree, and the export leaves them to their owners', async () => {
    const { app } = await setup();
    const tree = (await app.inject({ url: '/_emulate/platform/filesystem/tree?q=data/' })).json() as { items: Array<{ path: string; type: string }> };
    expect(tree.items.map((i) => [i.path, i.type])).toEqual([
      ['/Main/Demo/data/CRM', 'MAGRITTE_SOURCE'],
      ['/Main/Demo/data/orders', 'FOUNDRY_DATASET'],
    ]);
    const exported = (await app.inject({ url: '/_emulate/platform/state' })).json() as {
      platform: { resources?: Array<{ rid: string }>; datasets: Array<{ rid: string }> };
    };
    expect(exported.platform.datasets.map((d) => d.rid)).toEqual(['ri.foundry.main.dataset.orders']);
    expect((exported.platform.resources ?? []).map((r) => r.rid)).not.toContain('ri.foundry.main.dataset.orders');
  });
});
