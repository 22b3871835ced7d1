// The `datasets` seed key (docs/datasets.md, "Seed"): inline content or a file beside the seed, checked with
// paths; the state export writes it back and importing the export gives the same document.
import { mkdtemp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, mintToken, type TestApp } from '../helpers/app.js';
import { startEmulator } from '../../src/index.js';
import { testStoreSpec } from '../helpers/store.js';
import { controlToken } from '../clients/conformance-helpers.js';
import { READ, WRITE } from './helpers.js';
import { parse } from 'yaml';
import { exportState } from '../../src/seed/export.js';
import { parseSeed } from '../../src/seed/load.js';
import { writeStateFile } from '../../src/main.js';
import { SERVICES, seedCodecsOf } from '../../src/services/index.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.app.close();
  t = undefined;
});

const seed = {
  platform: {
    datasets: [
      {
        rid: 'ri.foundry.main.dataset.a',
        name: 'a',
        schema: { k: 'string', n: 'long', tags: 'array<integer>' },
        branches: ['master', 'dev'],
        files: [
          { path: 'p/0.csv', content: 'k,n,tags\nx,1,[1]\n' },
          { path: 'bin.parquet', content_base64: Buffer.from([0x50, 0x41, 0x52, 0x31, 0x00, 0xff]).toString('base64') },
        ],
      },
      { rid: 'ri.foundry.main.dataset.empty', name: 'empty' },
    ],
  },
};

/** The message a seed is refused with at start; undefined when it loads. */
const refusalOf = (seed: Record<string, unknown>) =>
  buildTestApp({ seed }).then(
    () => undefined,
    (e: Error) => e.message,
  );

describe('datasets seed', () => {
  it('refuses bad paths, duplicates, unknown types and missing sources, naming each path', async () => {
    const bad = {
      platform: {
        datasets: [
          {
            name: 'x',
            schema: { a: 'strnig' },
            files: [{ path: '../x.csv', content: '' }, { path: 'a//b', content: '' }, { path: 'c.csv' }, { path: 'd.csv', from: '/nonexistent/d.csv' }],
          },
          {
            name: 'y/z',
            schema: { '': 'string' },
            branches: ['ok', '..', 'ri.foundry.main.branch.x'],
            files: [{ path: 'b.bin', content_base64: '!!!not base64!!!' }],
          },
        ],
      },
    };
    const err = await refusalOf(bad);
    expect(err).toContain('platform.datasets[0].schema.a: unknown column type "strnig"');
    expect(err).toContain('platform.datasets[0].files[0].path: the path has a ".." segment');
    expect(err).toContain('platform.datasets[0].files[1].path: the path has an empty segment');
    expect(err).toContain('platform.datasets[0].files[2]: give exactly one of content, content_base64 and from');
    expect(err).toContain('platform.datasets[0].files[3].from: cannot read /nonexistent/d.csv');
    expect(err).toContain('platform.datasets[1].schema[""]: the column\'s name is empty');
    expect(err).toContain('platform.datasets[1].branches[1]: ".." cannot name a branch');
    expect(err).toContain('platform.datasets[1].branches[2]: "ri.foundry.main.branch.x" cannot name a branch');
    expect(err).toContain('platform.datasets[1].files[0].content_base64: not base64');
    expect(err).toContain('platform.datasets[1].name: the name holds a "/"');
    expect(err).not.toContain('platform.datasets[0].name');
    expect(err).not.toContain('branches[0]');
  });

  it("reports every column's schema problem at once, each at its column, beside an unknown type word", async () => {
    const err = await refusalOf({
      platform: {
        datasets: [
          {
            name: 'x',
            schema: {
              a: 'strin',
              d: { type: 'DECIMAL', precision: 50, scale: 2 },
              e: { type: 'ARRAY' },
              f: { type: 'DECIMAL', precision: 5, scale: 6 },
              'odd name': { type: 'NUMBER' },
              ok: 'long',
            },
          },
        ],
      },
    });
    expect(err).toContain('platform.datasets[0].schema.a: unknown column type "strin"');
    expect(err).toContain('platform.datasets[0].schema.d: DECIMAL field "d" has precision 50; the most is 38');
    expect(err).toContain('platform.datasets[0].schema.e: ARRAY field "e" has no arraySubtype');
    expect(err).toContain('platform.datasets[0].schema.f: DECIMAL field "f" has scale 6 above its precision 5');
    expect(err).toContain('platform.datasets[0].schema["odd name"]: field "odd name" has type "NUMBER", not a schema field type');
    expect(err).not.toContain('schema.ok');
  });

  it('puts every listed branch at the snapshot, whichever comes first', async () => {
    t = await buildTestApp({
      seed: {
        platform: {
          users: [{ username: 'dev' }],
          datasets: [
            {
              rid: 'ri.foundry.main.dataset.d',
              name: 'd',
              schema: { k: 'string' },
              branches: ['develop', 'master'],
              files: [{ path: 'a.csv', content: 'k\nx\n' }],
            },
          ],
        },
      },
    });
    const auth = bearer(await mintToken(t.app, 'dev', [READ]));
    const branches = (await t.app.inject({ url: '/api/v2/datasets/ri.foundry.main.dataset.d/branches', headers: auth })).json() as {
      data: Array<{ name: string; transactionRid?: string }>;
    };
    const heads = new Map(branches.data.map((b) => [b.name, b.transactionRid]));
    expect(heads.get('master')).toBeDefined();
    expect(heads.get('master')).toBe(heads.get('develop'));
    const table = await t.app.inject({ url: '/api/v2/datasets/ri.foundry.main.dataset.d/readTable?format=CSV&branchName=master', headers: auth });
    expect(table.statusCode).toBe(200);
    expect(table.body).toBe('k\nx\n');
  });

  it('exports what it seeded, and the export imports to the same document', async () => {
    t = await buildTestApp({ seed });
    expect(t.summary.counts).toContainEqual({ one: 'dataset', many: 'datasets', count: 2 });
    const doc = (await t.app.inject({ url: '/_emulate/platform/state' })).json() as { platform: { datasets: unknown[] } };
    expect(doc.platform.datasets).toEqual([
      {
        rid: 'ri.foundry.main.dataset.a',
        name: 'a',
        parent_folder_rid: 'ri.compass.main.folder.root',
        branches: ['master', 'dev'],
        schema: { k: 'string', n: 'long', tags: 'array<integer>' },
        files: [...seed.platform.datasets[0]!.files!.slice().reverse()],
      },
      { rid: 'ri.foundry.main.dataset.empty', name: 'empty', parent_folder_rid: 'ri.compass.main.folder.root', branches: ['master'], files: [] },
    ]);
    await t.app.close();
    t = await buildTestApp({ seed: doc });
    const again = (await t.app.inject({ url: '/_emulate/platform/state' })).json() as { platform: { datasets: unknown[] } };
    expect(again.platform.datasets).toEqual(doc.platform.datasets);
  });

  it('takes field schemas where a type word cannot say a column, and exports them so, losing nothing', async () => {
    const schema = {
      price: { type: 'DECIMAL', precision: 5, scale: 3, nullable: false },
      note: { type: 'STRING', nullable: true, customMetadata: { unit: 'text' } },
      id: 'long',
      tags: { type: 'ARRAY', nullable: true, arraySubtype: { type: 'STRING', nullable: false } },
    };
    t = await buildTestApp({ seed: { platform: { datasets: [{ rid: 'ri.foundry.main.dataset.s', name: 's', schema }] } } });
    const doc = (await t.app.inject({ url: '/_emulate/platform/state' })).json() as { platform: { datasets: Array<{ schema: unknown }> }; leftOut?: unknown };
    expect(doc.platform.datasets[0]!.schema).toEqual(schema);
    expect(doc.leftOut).toBeUndefined();
    const bad = await refusalOf({ platform: { datasets: [{ name: 'b', schema: { n: { type: 'NOPE' } } }] } });
    expect(bad).toContain('platform.datasets[0].schema.n: field "n" has type "NOPE"');
  });

  it('writes files over 64 KiB beside an export file, and starting from that file reads them back', async () => {
    const big = `k,n,tags\n${'x,1,[1]\n'.repeat(10_000)}`;
    t = await buildTestApp({
      seed: {
        platform: {
          datasets: [
            {
              rid: 'ri.foundry.main.dataset.big',
              name: 'big',
              schema: { k: 'string', n: 'long', tags: 'array<integer>' },
              // A file `p` and a folder `p/` in one view: both large.
              files: [
                { path: 'p/big.csv', content: big },
                { path: 'p', content: big },
                // A name longer than a disk takes (255 bytes): written beside as `file.csv`.
                { path: `q/${'L'.repeat(300)}.csv`, content: big },
              ],
            },
          ],
        },
      },
    });
    // Over HTTP there is nowhere beside the document: the file is named as dropped.
    const dropped: string[] = [];
    const http = await exportState(t.store, seedCodecsOf(SERVICES), { dropped });
    expect((http.platform.datasets as Array<{ files: unknown[] }>)[0]!.files).toEqual([]);
    expect(dropped.join('\n')).toContain('p/big.csv (80009 bytes) is larger than the 64 KiB');
    // The document itself says so, in both forms, and still loads as a seed.
    expect(http.leftOut).toEqual(dropped);
    const yaml = (await t.app.inject({ url: '/_emulate/platform/state?format=yaml' })).body;
    expect(yaml).toContain('# left out: datasets: ri.foundry.main.dataset.big file p/big.csv (80009 bytes)');
    const json = (await t.app.inject({ url: '/_emulate/platform/state' })).body;
    expect((JSON.parse(json) as { leftOut: string[] }).leftOut).toEqual(dropped);
    expect(() => parseSeed(json, 'export.json', seedCodecsOf(SERVICES))).not.toThrow();

    const dir = await mkdtemp(join(tmpdir(), 'ds-export-'));
    try {
      const file = join(dir, 'state.yaml');
      // What an older export left there goes: the folder holds this export's files only.
      await mkdir(join(dir, 'state.yaml.files', 'old'), { recursive: true });
      await writeFile(join(dir, 'state.yaml.files', 'old', 'stale.csv'), 'x');
      await writeStateFile({ store: t.store, services: SERVICES }, file);
      const doc = parse(await readFile(file, 'utf8')) as { platform: { datasets: Array<{ files: Array<{ path: string; from?: string }> }> } };
      const beside = (n: number, name: string) => join('state.yaml.files', 'ri.foundry.main.dataset.big', String(n), name);
      expect(doc.platform.datasets[0]!.files).toEqual([
        { path: 'p', from: beside(0, 'p') },
        { path: 'p/big.csv', from: beside(1, 'big.csv') },
        { path: `q/${'L'.repeat(300)}.csv`, from: beside(2, 'file.csv') },
      ]);
      expect(await readFile(join(dir, beside(1, 'big.csv')), 'utf8')).toBe(big);
      expect(await readdir(join(dir, 'state.yaml.files'))).toEqual(['ri.foundry.main.dataset.big']);
      expect((await readdir(dir)).sort()).toEqual(['state.yaml', 'state.yaml.files']);
      await t.app.close();

      const emulator = await startEmulator({ config: file, store: testStoreSpec() });
      try {
        const token = await emulator.mintToken('admin', [READ]);
        const res = await fetch(`${emulator.url}/api/v2/datasets/ri.foundry.main.dataset.big/files/p%2Fbig.csv/content`, {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(await res.text()).toBe(big);
        const folderNamed = await fetch(`${emulator.url}/api/v2/datasets/ri.foundry.main.dataset.big/files/p/content`, {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(await folderNamed.text()).toBe(big);
      } finally {
        await emulator.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("keeps each file's content type through an export and an import, in the document only where it is not the default", async () => {
    t = await buildTestApp({ seed: { platform: { users: [{ username: 'dev' }], datasets: [{ rid: 'ri.foundry.main.dataset.typed', name: 'typed' }] } } });
    const auth = bearer(await mintToken(t.app, 'dev', [READ, WRITE]));
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]);
    const types: Record<string, [string, Buffer]> = {
      'logo.png': ['image/png', png],
      'raw.csv': ['application/octet-stream', Buffer.from('a,b\n1,2\n')],
      'plain.csv': ['text/csv', Buffer.from('a\n1\n')],
      'notes.txt': ['text/plain; charset=utf-8', Buffer.from('hi\n')],
      // Over 64 KiB: beside an export file.
      'big.png': ['image/png', Buffer.concat([png, Buffer.alloc(70_000, 7)])],
    };
    for (const [path, [type, bytes]] of Object.entries(types)) {
      const url = `/api/v2/datasets/ri.foundry.main.dataset.typed/files/${path}/upload`;
      expect((await t.app.inject({ method: 'POST', url, headers: { ...auth, 'content-type': type }, payload: bytes })).statusCode).toBe(200);
    }
    const exported = (await t.app.inject({ url: '/_emulate/platform/state' })).json() as { platform: { datasets: Array<{ files: unknown[] }> } };
    expect(exported.platform.datasets[0]!.files).toEqual([
      { path: 'logo.png', content_type: 'image/png', content_base64: png.toString('base64') },
      { path: 'notes.txt', content_type: 'text/plain; charset=utf-8', content: 'hi\n' },
      // text/csv is what the seed gives a .csv path anyway.
      { path: 'plain.csv', content: 'a\n1\n' },
      { path: 'raw.csv', content_type: 'application/octet-stream', content: 'a,b\n1,2\n' },
    ]);

    const dir = await mkdtemp(join(tmpdir(), 'ds-types-'));
    try {
      const file = join(dir, 'state.yaml');
      await writeStateFile({ store: t.store, services: SERVICES }, file);
      const doc = parse(await readFile(file, 'utf8')) as { platform: { datasets: Array<{ files: Array<Record<string, string>> }> } };
      expect(doc.platform.datasets[0]!.files[0]).toEqual({
        path: 'big.png',
        content_type: 'image/png',
        from: join('state.yaml.files', 'ri.foundry.main.dataset.typed', '0', 'big.png'),
      });
      await t.app.close();
      t = undefined;

      const emulator = await startEmulator({ config: file, store: testStoreSpec() });
      try {
        const token = await emulator.mintToken('dev', [READ]);
        for (const [path, [type, bytes]] of Object.entries(types)) {
          const res = await fetch(`${emulator.url}/api/v2/datasets/ri.foundry.main.dataset.typed/files/${path}/content`, {
            headers: { authorization: `Bearer ${token}` },
          });
          expect([path, res.headers.get('content-type'), Buffer.from(await res.arrayBuffer()).equals(bytes)]).toEqual([path, type, true]);
        }
        const again = (await (await fetch(`${emulator.url}/_emulate/platform/state`)).json()) as typeof exported;
        expect(again.platform.datasets).toEqual(exported.platform.datasets);
      } finally {
        await emulator.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a content type that is not a media type and a branch name over 1024 UTF-8 bytes, naming each path', async () => {
    const err = await refusalOf({
      platform: {
        datasets: [
          {
            name: 'x',
            branches: ['master', 'b'.repeat(1025), 'é'.repeat(513), 'é'.repeat(512)],
            files: [
              { path: 'a.png', content: 'x', content_type: 'png' },
              { path: 'b.csv', content: 'x', content_type: 'text/csv\r\nX-Other: 1' },
              { path: 'c.txt', content: 'x', content_type: '' },
              { path: 'd.txt', content: 'x', content_type: 'text/plain; charset=utf-8' },
            ],
          },
        ],
      },
    });
    expect(err).toContain('platform.datasets[0].files[0].content_type: "png" is not a media type');
    expect(err).toContain('platform.datasets[0].files[1].content_type: "text/csv\\r\\nX-Other: 1" is not a media type');
    expect(err).toContain('platform.datasets[0].files[2].content_type: "" is not a media type');
    expect(err).toMatch(/platform\.datasets\[0\]\.branches\[1\]: "b+…" cannot name a branch: it is 1025 bytes long in UTF-8/);
    expect(err).toMatch(/platform\.datasets\[0\]\.branches\[2\]: "é+…" cannot name a branch: it is 1026 bytes long in UTF-8/);
    expect(err).not.toContain('files[3]');
    expect(err).not.toContain('branches[3]');
  });

  it('reads `from:` relative to the seed file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ds-seed-'));
    try {
      await mkdir(join(dir, 'data'));
      await writeFile(join(dir, 'data', 'part.csv'), 'k\nfrom-file\n');
      await writeFile(
        join(dir, 'seed.yaml'),
        'platform:\n  users: [{ username: dev }]\n  datasets:\n    - { rid: ri.foundry.main.dataset.f, name: f, schema: { k: string }, files: [{ path: part.csv, from: ./data/part.csv }] }\n',
      );
      const emulator = await startEmulator({ config: join(dir, 'seed.yaml'), store: testStoreSpec() });
      try {
        const token = await controlToken(emulator.url, 'dev', [READ]);
        const res = await fetch(`${emulator.url}/api/v2/datasets/ri.foundry.main.dataset.f/readTable?format=CSV`, {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(await res.text()).toBe('k\nfrom-file\n');
      } finally {
        await emulator.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
