// The dashboard's Objects and Object files views over HTTP (docs/ontology-dashboard.md), on a real port and on the
// store this pass tests (memory, or PostgreSQL under TEST_STORE): pages of 100 with tokens, a search narrowing by
// text and by `type:`/`ontology:` words, bad tokens and sizes refused with 400, an edit through the control route
// read back, and the files objects hold listed and downloaded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/index.js';
import { testStoreSpec } from '../helpers/store.js';
import { PDF, PNG, PRODUCTS, sku, writeViewsSeed } from './views-seed.js';

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({ config: writeViewsSeed(), store: testStoreSpec() });
}, 60_000);
afterAll(() => emulator?.close());

interface Row {
  ontology: string;
  objectType: string;
  primaryKey: string;
  title: string;
  properties: string;
  files: Array<{ text: string; href: string } | string>;
}
type Page<T> = { items: T[]; nextPageToken?: string };

const get = (path: string) => fetch(`${emulator.url}${path}`);
async function page<T = Row>(path: string, params: Record<string, string> = {}): Promise<Page<T>> {
  const res = await get(`${path}?${new URLSearchParams(params)}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Page<T>;
}
/** Every page of a listing, following the tokens (bounded). */
async function all<T = Row>(path: string, params: Record<string, string> = {}): Promise<{ items: T[]; pages: number[] }> {
  const items: T[] = [];
  const pages: number[] = [];
  let token: string | undefined;
  for (let i = 0; i < 50; i++) {
    const p = await page<T>(path, { ...params, ...(token ? { pageToken: token } : {}) });
    items.push(...p.items);
    pages.push(p.items.length);
    token = p.nextPageToken;
    if (!token) return { items, pages };
  }
  throw new Error('more than 50 pages');
}

const OBJECTS = '/_emulate/platform/ontologies/objects';
const FILES = '/_emulate/platform/ontologies/object-files';

describe('the Objects view', () => {
  it('pages every object of every ontology, 100 a page, in order', async () => {
    const { items, pages } = await all(OBJECTS);
    expect(pages).toEqual([100, 100, 53]);
    expect(items.map((r) => r.primaryKey)).toEqual([...Array.from({ length: PRODUCTS }, (_, i) => sku(i + 1)), '1', '2', '3']);
    expect(items[1]).toEqual({
      ontology: 'shop',
      objectType: 'Product',
      primaryKey: 'p0002',
      title: 'Widget 2',
      properties: 'price: 3 · tags: [blue]',
      files: [],
    });
    expect(items[252]).toMatchObject({ ontology: 'hr', objectType: 'Employee', primaryKey: '3', title: 'Person 3', properties: '' });
    // Another page size pages the same list, across the two ontologies.
    const small = await all(OBJECTS, { pageSize: '120' });
    expect(small.pages).toEqual([120, 120, 13]);
    expect(small.items.map((r) => r.primaryKey)).toEqual(items.map((r) => r.primaryKey));
  });

  it('reads a page from the store without reading the type (countOf, slice)', async () => {
    const objects = emulator.server.store.ontologyObjects;
    const shop = (await emulator.server.store.ontologies.byApiName('shop'))!;
    expect(await objects.countOf(shop.rid, 'Product')).toBe(PRODUCTS);
    expect(await objects.countOf(shop.rid, 'Nothing')).toBe(0);
    expect((await objects.slice(shop.rid, 'Product', 248, 10)).map((o) => o.key)).toEqual([sku(249), sku(250)]);
    expect((await objects.slice(shop.rid, 'Product', 0, 2)).map((o) => o.key)).toEqual([sku(1), sku(2)]);
    expect(await objects.slice(shop.rid, 'Product', 300, 10)).toEqual([]);
  });

  it('searches the primary key, the title and property text, and narrows by type: and ontology:', async () => {
    const keys = async (q: string) => (await all(OBJECTS, { q })).items.map((r) => `${r.objectType}:${r.primaryKey}`);
    expect(await keys('P0007')).toEqual(['Product:p0007']);
    expect(await keys('widget 12')).toEqual(['Product:p0012', ...Array.from({ length: 10 }, (_, i) => `Product:p012${i}`)]);
    expect((await keys('red')).length).toBe(25);
    expect(await keys('person')).toEqual(['Employee:1', 'Employee:2', 'Employee:3']);
    expect(await keys('type:employee')).toEqual(['Employee:1', 'Employee:2', 'Employee:3']);
    expect(await keys('ontology:HR 2')).toEqual(['Employee:2']);
    expect(await keys('type:Product 375')).toEqual(['Product:p0250']); // price 375
    expect(await keys('nothing like this')).toEqual([]);
    // A search is paged like the list: 111 names hold "widget 1".
    const paged = await all(OBJECTS, { q: 'widget 1', pageSize: '50' });
    expect(paged.pages).toEqual([50, 50, 11]);
    expect(new Set(paged.items.map((r) => r.primaryKey)).size).toBe(111);
  });

  it('refuses a bad page token, a token of another search and a bad page size with a clear 400', async () => {
    const first = await page(OBJECTS, { q: 'widget' });
    expect(first.nextPageToken).toBeDefined();
    const bad: Array<Record<string, string>> = [
      { pageToken: 'not-a-token' },
      { pageToken: first.nextPageToken! },
      { q: 'widget', pageSize: '0' },
      { pageSize: 'many' },
    ];
    for (const params of bad) {
      const res = await get(`${OBJECTS}?${new URLSearchParams(params)}`);
      expect(res.status).toBe(400);
      const body = (await res.json()) as { errorCode: string; errorName: string };
      expect(body.errorCode).toBe('INVALID_ARGUMENT');
      expect(body.errorName).toMatch(/^InvalidPage(Token|Size)$/);
    }
    expect((await get(`${FILES}?pageToken=zzz`)).status).toBe(400);
  });

  it('shows an edit made through the control route', async () => {
    const put = await fetch(`${emulator.url}/_emulate/platform/ontologies/shop/objects/Product/p0002`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Renamed gadget', price: 9 }),
    });
    expect(put.status).toBe(200);
    const [row] = (await page(OBJECTS, { q: 'renamed' })).items;
    expect(row).toMatchObject({ primaryKey: 'p0002', title: 'Renamed gadget', properties: 'price: 9' });
  });
});

describe('the files objects hold', () => {
  it('an object row links its files, and the link downloads the bytes with their type', async () => {
    const [row] = (await page(OBJECTS, { q: 'p0001' })).items;
    expect(row!.properties).toBe('price: 1.5 · tags: [blue] · manual: manual.pdf · photo: photo.png');
    const files = row!.files as Array<{ text: string; href: string }>;
    expect(files.map((f) => f.text)).toEqual([`manual.pdf (${PDF.length} B, application/pdf)`, `photo.png (${PNG.length} B, image/png)`]);
    const res = await get(files[0]!.href);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="manual.pdf"; filename*=UTF-8''manual.pdf`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await res.arrayBuffer())).toEqual(PDF);
    const photo = await get(files[1]!.href);
    expect(photo.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await photo.arrayBuffer())).toEqual(PNG);
  });

  it('the Object files view lists each file once, searchable by name and type; an unknown rid is 404', async () => {
    type FileRow = { primaryKey: string; property: string; file: { text: string; href: string }; kind: string; mediaType: string; sizeBytes: number };
    const { items } = await all<FileRow>(FILES);
    expect(items.map((r) => [r.primaryKey, r.property, r.kind, r.mediaType, r.sizeBytes])).toEqual([
      ['p0001', 'manual', 'attachment', 'application/pdf', PDF.length],
      ['p0001', 'photo', 'media', 'image/png', PNG.length],
    ]);
    expect((await all<FileRow>(FILES, { q: 'image/' })).items.map((r) => r.property)).toEqual(['photo']);
    expect((await all<FileRow>(FILES, { q: 'type:Employee' })).items).toEqual([]);
    const missing = await get('/_emulate/platform/ontologies/files/ri.attachments.main.attachment.00000000-0000-0000-0000-000000000000');
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { errorName: string }).errorName).toBe('FileNotFound');
  });
});
