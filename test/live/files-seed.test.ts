// Files in the seed and the life of an upload (docs/live-ontology.md): `{from: files/x.pdf}` beside the seed
// becomes an attachment (and a media item) the object routes read, with the same rid after a reset; an upload
// no action used is gone an hour later, one an action used stays.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, startEmulator, type Emulator } from '../../src/index.js';
import { testStoreSpec } from '../helpers/store.js';
import { controlToken } from '../clients/conformance-helpers.js';

const PDF = Buffer.from('%PDF-1.4\nseeded\n');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 9, 9]);
const clock = new ManualClock();
let emulator: Emulator;
let token: string;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'live-files-'));
  mkdirSync(join(dir, 'files'));
  writeFileSync(join(dir, 'files', 'report.pdf'), PDF);
  writeFileSync(join(dir, 'files', 'scan.png'), PNG);
  writeFileSync(
    join(dir, 'seed.yaml'),
    `
platform:
  users: [{ username: dev }]
  ontologies:
    - api_name: docs
      display_name: Docs
      object_types:
        - api_name: Report
          primary_key: id
          properties: { id: string, file: attachment, scan: mediaReference }
      objects:
        Report: [{ id: r1, file: { from: files/report.pdf }, scan: { from: files/scan.png } }]
      action_types:
        - api_name: attach
          parameters: { report: string, file: attachment }
          edits: [{ create: Report, values: { id: $report, file: $file } }]
`,
  );
  emulator = await startEmulator({ config: join(dir, 'seed.yaml'), store: testStoreSpec(), clock });
  token = await controlToken(emulator.url, 'dev', ['api:ontologies-read', 'api:ontologies-write']);
});
afterAll(() => emulator?.close());

const get = (path: string) => fetch(`${emulator.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
const upload = async (name: string, body: string) =>
  (await (
    await fetch(`${emulator.url}/api/v2/ontologies/attachments/upload?filename=${name}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
      body,
    })
  ).json()) as { rid: string };

describe('files in the seed', () => {
  it('a seeded attachment and media item are read through the object routes, with the same rid after a reset', async () => {
    const meta = (await (await get('/api/v2/ontologies/docs/objects/Report/r1/attachments/file')).json()) as Record<string, unknown>;
    expect(meta).toMatchObject({ type: 'single', filename: 'report.pdf', mediaType: 'application/pdf', sizeBytes: String(PDF.length) });
    const content = await get('/api/v2/ontologies/docs/objects/Report/r1/attachments/file/content');
    expect(content.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await content.arrayBuffer())).toEqual(PDF);
    const media = await get('/api/v2/ontologies/docs/objects/Report/r1/media/scan/content');
    expect(Buffer.from(await media.arrayBuffer())).toEqual(PNG);
    await emulator.reset();
    token = await controlToken(emulator.url, 'dev', ['api:ontologies-read', 'api:ontologies-write']); // a reset forgets tokens
    const again = (await (await get('/api/v2/ontologies/docs/objects/Report/r1/attachments/file')).json()) as Record<string, unknown>;
    expect(again.rid).toBe(meta.rid);
    // A property of the other kind is refused by name.
    expect((await get('/api/v2/ontologies/docs/objects/Report/r1/media/file/content')).status).toBe(400);
  });

  it('an upload no action used is gone after an hour; one an action used stays', async () => {
    const unused = await upload('a.txt', 'unused');
    const used = await upload('b.txt', 'used');
    const applied = await fetch(`${emulator.url}/api/v2/ontologies/docs/actions/attach/apply`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ parameters: { report: 'r2', file: used.rid } }),
    });
    expect(applied.status).toBe(200);
    clock.advance(61 * 60 * 1000);
    token = await controlToken(emulator.url, 'dev', ['api:ontologies-read', 'api:ontologies-write']); // the old one expired too
    await upload('c.txt', 'sweeps'); // every upload sweeps what has expired
    expect((await get(`/api/v2/ontologies/attachments/${unused.rid}`)).status).toBe(404);
    expect((await get(`/api/v2/ontologies/attachments/${used.rid}/content`)).status).toBe(200);
    expect(await (await get('/api/v2/ontologies/docs/objects/Report/r2/attachments/file/content')).text()).toBe('used');
  });
});
