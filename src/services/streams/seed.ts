// The `streams` seed key (docs/streams.md, "Seed"): each stream is a dataset with a stream on one branch and
// optional initial records. A schema is a map of column -> type word, or the wire form `{fields: [...]}` (what
// the export writes when a word cannot say a type). The export writes each stream's current view back, its
// records up to EXPORT_MAX_RECORDS (the rest are named as dropped); offsets start from 0 again on import.
import { Type, type Static } from '@sinclair/typebox';
import type { SeedCodec } from '../../seed/codec.js';
import { STREAMS } from './part.js';
import { DATASETS } from '../datasets/part.js';
import { Streams } from './operations.js';
import { recordProblem, schemaProblem } from './schema.js';
import type { StreamSchema, WireFieldSchema } from './model.js';
import { STREAM_LIMIT_KEYS, maxStreamRecords } from './caps.js';

const EXPORT_MAX_RECORDS = 10_000;
const WORDS = ['string', 'boolean', 'byte', 'short', 'integer', 'long', 'float', 'double', 'decimal', 'date', 'timestamp', 'binary'];

const StreamSeed = Type.Object(
  {
    rid: Type.Optional(Type.String({ pattern: '^ri\\.foundry\\.main\\.dataset\\.[A-Za-z0-9-]+$' })),
    name: Type.String({ minLength: 1 }),
    parent_folder_rid: Type.String({ minLength: 1, default: 'ri.compass.main.folder.root' }),
    branch: Type.String({ minLength: 1, default: 'master' }),
    schema: Type.Union([
      Type.Record(Type.String(), Type.String()),
      Type.Object({ fields: Type.Array(Type.Any()), keyFieldNames: Type.Optional(Type.Array(Type.String())) }),
    ]),
    stream_type: Type.Optional(Type.Union([Type.Literal('LOW_LATENCY'), Type.Literal('HIGH_THROUGHPUT')])),
    partitions_count: Type.Optional(Type.Integer({ minimum: 1, maximum: 64 })),
    records: Type.Array(Type.Record(Type.String(), Type.Any()), { default: [] }),
  },
  { additionalProperties: false },
);
const StreamsSeed = Type.Array(StreamSeed, { default: [] });
type StreamSeedEntry = Static<typeof StreamSeed>;

function fieldOfWord(word: string): WireFieldSchema | undefined {
  const w = word.trim().toLowerCase();
  const array = /^array<(.+)>$/.exec(w);
  if (array) {
    const items = fieldOfWord(array[1]!);
    return items && { nullable: true, dataType: { type: 'array', itemsSchema: items } };
  }
  return WORDS.includes(w) ? { nullable: true, dataType: { type: w } } : undefined;
}

function wordOf(s: WireFieldSchema): string | undefined {
  if (!s.nullable) return undefined;
  if (s.dataType.type === 'array') {
    const item = s.dataType.itemsSchema && wordOf(s.dataType.itemsSchema);
    return item && `array<${item}>`;
  }
  return WORDS.includes(s.dataType.type) && Object.keys(s.dataType).length === 1 ? s.dataType.type : undefined;
}

/** The seed's schema as the wire's; undefined when a word is unknown. */
export function schemaOfSeed(schema: StreamSeedEntry['schema']): StreamSchema | undefined {
  if (Array.isArray((schema as { fields?: unknown }).fields)) return schema as StreamSchema;
  const fields = [];
  for (const [name, word] of Object.entries(schema as Record<string, string>)) {
    const s = fieldOfWord(word);
    if (!s) return undefined;
    fields.push({ name, schema: s });
  }
  return { fields };
}

function seedSchemaOf(schema: StreamSchema): StreamSeedEntry['schema'] {
  const words: Record<string, string> = {};
  for (const f of schema.fields) {
    const word = wordOf(f.schema);
    if (word === undefined || schema.keyFieldNames?.length) return schema as StreamSeedEntry['schema'];
    words[f.name] = word;
  }
  return words;
}

function check(part: StreamSeedEntry[], path: string): string[] {
  const problems: string[] = [];
  part.forEach((s, i) => {
    const at = `${path}[${i}]`;
    if (s.rid !== undefined && part.findIndex((o) => o.rid === s.rid) < i) problems.push(`${at}.rid: duplicate stream rid "${s.rid}"`);
    const schema = schemaOfSeed(s.schema);
    if (!schema) {
      for (const [column, word] of Object.entries(s.schema))
        if (typeof word === 'string' && !fieldOfWord(word)) problems.push(`${at}.schema.${column}: unknown type "${word}"`);
      return;
    }
    const problem = schemaProblem(schema);
    if (problem) return void problems.push(`${at}.schema: ${problem}`);
    s.records.forEach((r, j) => {
      const bad = recordProblem(schema, r);
      if (bad) problems.push(`${at}.records[${j}].${bad.field}: ${bad.problem}`);
    });
  });
  return problems;
}

export const streamsSeedCodec: SeedCodec<StreamSeedEntry[]> = {
  key: 'streams',
  schema: StreamsSeed,
  limits: STREAM_LIMIT_KEYS,
  example: [
    {
      rid: 'ri.foundry.main.dataset.example-events',
      name: 'events',
      parent_folder_rid: 'ri.compass.main.folder.example',
      branch: 'master',
      schema: { id: 'string', temperature: 'double' },
      records: [{ id: 'a', temperature: 20.5 }],
    },
  ],
  check: check as never,
  apply: async (part, { store, clock, seed }) => {
    const streams = new Streams(store, clock, maxStreamRecords(seed));
    for (const s of part) {
      const settings = { schema: schemaOfSeed(s.schema), branchName: s.branch, streamType: s.stream_type, partitionsCount: s.partitions_count };
      // An exported state names a stream's dataset under `datasets` too: the stream then joins that dataset.
      const existing = s.rid === undefined ? undefined : await store.part(DATASETS).dataset(s.rid);
      const stream = existing
        ? await streams.createStream(existing.rid, s.branch, settings)
        : (await streams.createDataset(s.name, s.parent_folder_rid, settings, s.rid)).stream;
      if (s.records.length > 0) await streams.publish(stream, s.records, true);
    }
  },
  export: async ({ store, dropped }) => {
    const out: StreamSeedEntry[] = [];
    const datasets = store.part(DATASETS);
    for (const s of await store.part(STREAMS).streams()) {
      const dataset = await datasets.dataset(s.datasetRid);
      const got = await store.part(STREAMS).read(s.viewRid, 0, EXPORT_MAX_RECORDS);
      const bounds = got?.bounds ?? { first: 0, end: 0 };
      if (bounds.end - bounds.first > EXPORT_MAX_RECORDS)
        dropped(`streams: ${s.datasetRid} keeps ${bounds.end - bounds.first} records; the export writes its first ${EXPORT_MAX_RECORDS}`);
      out.push({
        rid: s.datasetRid,
        name: dataset?.name ?? s.datasetRid,
        parent_folder_rid: dataset?.parentFolderRid ?? 'ri.compass.main.folder.root',
        branch: s.branch,
        schema: seedSchemaOf(s.schema),
        ...(s.streamType === 'LOW_LATENCY' ? {} : { stream_type: s.streamType }),
        ...(s.partitionsCount === 1 ? {} : { partitions_count: s.partitionsCount }),
        records: (got?.records ?? []).map((r) => JSON.parse(r.value) as Record<string, unknown>),
      });
    }
    return out;
  },
  summary: async (store) => [{ one: 'stream', many: 'streams', count: (await store.part(STREAMS).streams()).length }],
};
