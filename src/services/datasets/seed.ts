// The `datasets` seed codec (docs/datasets.md, "Seed"): each dataset with its branches, and its files as one
// committed SNAPSHOT on the first branch with the schema attached to it. The export writes the first branch's
// current view back: text files up to 64 KiB inline, small binary ones in base64; larger files go beside an
// export file (`from:`), and over HTTP (one answer, nowhere beside it) are named as dropped. Each file keeps its
// content type: `content_type` when it is not the one a seed gives its path by default.
import { createReadStream, statSync } from 'node:fs';
import { basename, dirname, extname, isAbsolute, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import type { SeedCodec } from '../../seed/codec.js';
import { DATASETS } from './part.js';
import { BLOBS } from '../../blobs/index.js';
import { Datasets } from './operations.js';
import { findSchema, putSchema } from './schemas.js';
import { branchNameProblem, pathProblem } from './paths.js';
import { displayNameProblem } from '../display-names.js';
import { quote } from '../../errors.js';
import { DatasetsSeed, schemaOfSeed, seedOfField, seedSchemaProblems, type DatasetSeedEntry, type SeedColumn } from './seed-schema.js';
import { systemClock } from '../../clock.js';
import { DATASET_LIMIT_KEYS } from './caps.js';

const INLINE_MAX = 64 * 1024;
/** A file name most file systems take (255 bytes), with room to spare. */
const NAME_MAX_BYTES = 200;
/** A file's name beside an export: its own, or `file` and its extension when the name is too long for a disk. */
function besideName(path: string): string {
  const name = basename(path);
  if (Buffer.byteLength(name) <= NAME_MAX_BYTES) return name;
  const ext = extname(name);
  return `file${Buffer.byteLength(ext) <= 16 ? ext : ''}`;
}
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/**
 * The content type a seed file gets without `content_type`. Part of the seed format: the export leaves out a
 * content type equal to it, so that a seed written without one exports as it was written.
 */
const defaultContentType = (path: string) => (path.endsWith('.csv') ? 'text/csv' : 'application/octet-stream');
const TOKEN = "[\\w!#$%&'*+.^`|~-]+";
/**
 * A media type as an upload's Content-Type is taken (the framework checks the same): `type/subtype`, both RFC 9110
 * tokens, then optional `;` parameters in characters a header may hold. What the API stored, the seed takes back.
 */
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}[ \\t]*(?:;[\\t\\x20-\\x7e\\x80-\\xff]*)?$`);
/** A rid as a folder name (rids hold only these characters, but a seeded one may hold anything). */
const safeName = (rid: string) => rid.replace(/[^A-Za-z0-9._-]/g, '_');

function check(part: DatasetSeedEntry[], path: string, _platform: Record<string, unknown>, source: string): string[] {
  const problems: string[] = [];
  const base = source === '<inline>' ? process.cwd() : dirname(resolve(source));
  part.forEach((d, i) => {
    const at = `${path}[${i}]`;
    if (d.rid !== undefined && part.findIndex((o) => o.rid === d.rid) < i) problems.push(`${at}.rid: duplicate dataset rid "${d.rid}"`);
    problems.push(...seedSchemaProblems(d.schema ?? {}, at));
    const nameProblem = displayNameProblem(d.name);
    if (nameProblem) problems.push(`${at}.name: the name ${nameProblem}`);
    d.branches.forEach((b, j) => {
      if (d.branches.indexOf(b) < j) problems.push(`${at}.branches[${j}]: duplicate branch "${b}"`);
      const problem = branchNameProblem(b);
      if (problem) problems.push(`${at}.branches[${j}]: ${quote(b)} cannot name a branch: it ${problem}`);
    });
    d.files.forEach((f, j) => {
      const fat = `${at}.files[${j}]`;
      const problem = pathProblem(f.path);
      if (problem) problems.push(`${fat}.path: ${problem}`);
      if (d.files.findIndex((o) => o.path === f.path) < j) problems.push(`${fat}.path: duplicate file "${f.path}"`);
      const sources = [f.content, f.content_base64, f.from].filter((v) => v !== undefined).length;
      if (sources !== 1) problems.push(`${fat}: give exactly one of content, content_base64 and from`);
      if (f.content_type !== undefined && !MEDIA_TYPE.test(f.content_type))
        problems.push(`${fat}.content_type: ${quote(f.content_type)} is not a media type (type/subtype, then optional ";" parameters)`);
      // Node's decoder skips what is not base64 without a word: a typo would become other bytes.
      if (f.content_base64 !== undefined && !BASE64.test(f.content_base64.replace(/\s+/g, '')))
        problems.push(`${fat}.content_base64: not base64 (A-Z, a-z, 0-9, + and /, padded with = to a multiple of 4)`);
      if (f.from !== undefined) {
        // Resolved here, where the seed file's folder is known; apply reads the absolute path.
        const file = isAbsolute(f.from) ? f.from : resolve(base, f.from);
        try {
          if (!statSync(file).isFile()) problems.push(`${fat}.from: ${file} is not a file`);
          f.from = file;
        } catch {
          problems.push(`${fat}.from: cannot read ${file}`);
        }
      }
    });
  });
  return problems;
}

function bytesOf(f: DatasetSeedEntry['files'][number]): AsyncIterable<Uint8Array> {
  if (f.from !== undefined) return createReadStream(f.from);
  return Readable.from([f.content_base64 !== undefined ? Buffer.from(f.content_base64, 'base64') : Buffer.from(f.content ?? '', 'utf8')]);
}

const isText = (bytes: Buffer) => !bytes.includes(0) && Buffer.from(bytes.toString('utf8'), 'utf8').equals(bytes);

export const datasetsSeedCodec: SeedCodec<DatasetSeedEntry[]> = {
  key: 'datasets',
  schema: DatasetsSeed,
  limits: DATASET_LIMIT_KEYS,
  example: [
    {
      rid: 'ri.foundry.main.dataset.example',
      name: 'trips',
      parent_folder_rid: 'ri.compass.main.folder.example',
      branches: ['master'],
      schema: { driver: 'string', trips: 'integer' },
      files: [{ path: 'trips.csv', content: 'driver,trips\nana,3\nbo,5\n' }],
    },
  ],
  check: check as never,
  apply: async (part, { store, clock }) => {
    const datasets = new Datasets(store, clock);
    for (const d of part) {
      const [first, ...others] = d.branches as [string, ...string[]];
      const record = await datasets.create(d.name, d.parent_folder_rid, d.rid, [first]);
      let snapshot: string | undefined;
      if (d.files.length > 0 || d.schema !== undefined) {
        const t = await datasets.open(record.rid, first, 'SNAPSHOT');
        for (const f of d.files)
          await datasets.upload(record.rid, f.path, bytesOf(f), {
            transactionRid: t.rid,
            maxBytes: Number.MAX_SAFE_INTEGER,
            contentType: f.content_type ?? defaultContentType(f.path),
          });
        await datasets.close(record.rid, t.rid, 'COMMITTED');
        snapshot = t.rid;
        if (d.schema !== undefined) await putSchema(datasets, record.rid, { branchName: first, schema: schemaOfSeed(d.schema) });
      }
      // At the snapshot, whichever branch holds it (a branch without a transaction starts at master's head).
      for (const b of others) await datasets.createBranch(record.rid, b, snapshot);
    }
  },
  export: async ({ store, dropped, writeBeside }) => {
    const datasets = new Datasets(store, systemClock);
    const out: DatasetSeedEntry[] = [];
    for (const d of await store.part(DATASETS).datasets()) {
      const branches = (await store.part(DATASETS).branches(d.rid)).map((b) => b.name);
      const main = branches.includes('master') ? 'master' : branches[0];
      const ordered = main === undefined ? [] : [main, ...branches.filter((b) => b !== main)];
      const entry: DatasetSeedEntry = {
        rid: d.rid,
        name: d.name,
        parent_folder_rid: d.parentFolderRid,
        branches: ordered.length > 0 ? ordered : ['master'],
        files: [],
      };
      if (main !== undefined) {
        const schema = await findSchema(datasets, d.rid, { branchName: main });
        if (schema) {
          const columns: Record<string, SeedColumn> = {};
          for (const field of schema.schema.fieldSchemaList) {
            if (field.name === undefined)
              dropped(`datasets: the schema of ${d.rid} has a column without a name, which a seed cannot key; the schema is left out`);
            else columns[field.name] = seedOfField({ ...field, name: field.name });
          }
          if (Object.keys(columns).length === schema.schema.fieldSchemaList.length) entry.schema = columns;
        }
        const branch = await datasets.branch(d.rid, main);
        let beside = 0;
        for (const f of await datasets.view({ datasetRid: d.rid, branch })) {
          const info = f.blobId === undefined ? undefined : await store.part(BLOBS).stat(f.blobId);
          const stream = info && (await store.part(BLOBS).open(info.blobId));
          if (!info || !stream) {
            dropped(`datasets: ${d.rid} file ${f.path}: its bytes are gone from the store`);
            continue;
          }
          // Its content type, unless the seed would give it that one anyway.
          let typed: { content_type?: string } = {};
          if (info.contentType !== defaultContentType(f.path)) {
            if (MEDIA_TYPE.test(info.contentType)) typed = { content_type: info.contentType };
            else dropped(`datasets: ${d.rid} file ${f.path}: its content type ${quote(info.contentType)} is not one a seed takes; it is left out`);
          }
          if (f.size > INLINE_MAX) {
            // A file export writes it beside the document; over HTTP there is nowhere to put it.
            // In a folder of its own per file (`<rid>/<n>/<name>`): a dataset may hold both `x` and `x/y`.
            if (writeBeside)
              entry.files.push({ path: f.path, ...typed, from: await writeBeside(join(safeName(d.rid), String(beside++), besideName(f.path)), stream) });
            else {
              stream.destroy();
              dropped(`datasets: ${d.rid} file ${f.path} (${f.size} bytes) is larger than the 64 KiB an exported seed inlines`);
            }
            continue;
          }
          const parts: Buffer[] = [];
          for await (const p of stream) parts.push(p as Buffer);
          const bytes = Buffer.concat(parts);
          entry.files.push(
            isText(bytes) ? { path: f.path, ...typed, content: bytes.toString('utf8') } : { path: f.path, ...typed, content_base64: bytes.toString('base64') },
          );
        }
      }
      out.push(entry);
    }
    return out;
  },
  summary: async (store) => [{ one: 'dataset', many: 'datasets', count: (await store.part(DATASETS).datasets()).length }],
};
