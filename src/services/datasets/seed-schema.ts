// The `datasets` seed key (docs/datasets.md, "Seed"): its shape, and the column-type words a seed schema uses.
import { Type, type Static } from '@sinclair/typebox';
import type { DatasetSchema, FieldSchema } from './model.js';

const SeedFile = Type.Object(
  {
    path: Type.String(),
    /** The file's text, as it is. */
    content: Type.Optional(Type.String()),
    /** Binary content (a Parquet file) in base64: what the export writes for bytes that are not text. */
    content_base64: Type.Optional(Type.String()),
    /** A file beside the seed (relative to the seed file's folder). */
    from: Type.Optional(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false },
);

export const DatasetSeed = Type.Object(
  {
    rid: Type.Optional(Type.String({ pattern: '^ri\\.foundry\\.main\\.dataset\\.[A-Za-z0-9-]+$' })),
    name: Type.String({ minLength: 1 }),
    parent_folder_rid: Type.String({ minLength: 1, default: 'ri.compass.main.folder.root' }),
    /** Column name -> type word (string, integer, long, double, float, boolean, date, timestamp, decimal, short, byte, array<T>). */
    schema: Type.Optional(Type.Record(Type.String(), Type.String())),
    branches: Type.Array(Type.String({ minLength: 1 }), { default: ['master'], minItems: 1 }),
    files: Type.Array(SeedFile, { default: [] }),
  },
  { additionalProperties: false },
);

export const DatasetsSeed = Type.Array(DatasetSeed, { default: [] });
export type DatasetSeedEntry = Static<typeof DatasetSeed>;

const WORDS: Record<string, string> = {
  string: 'STRING',
  integer: 'INTEGER',
  long: 'LONG',
  double: 'DOUBLE',
  float: 'FLOAT',
  boolean: 'BOOLEAN',
  date: 'DATE',
  timestamp: 'TIMESTAMP',
  decimal: 'DECIMAL',
  short: 'SHORT',
  byte: 'BYTE',
};

/** A type word as a field schema; undefined when the word is unknown. */
export function fieldOfWord(name: string, word: string): FieldSchema | undefined {
  const array = /^array<(.+)>$/i.exec(word.trim());
  if (array) {
    const item = fieldOfWord('element', array[1]!);
    if (!item) return undefined;
    delete item.name;
    return { type: 'ARRAY', name, nullable: true, arraySubtype: item };
  }
  const type = WORDS[word.trim().toLowerCase()];
  return type === undefined ? undefined : { type, name, nullable: true };
}

/** A field schema as a type word; undefined for what the word form cannot say (maps, structs, binary). */
export function wordOfField(field: FieldSchema): string | undefined {
  if (field.type === 'ARRAY') {
    const item = field.arraySubtype && wordOfField(field.arraySubtype);
    return item && `array<${item}>`;
  }
  return Object.entries(WORDS).find(([, type]) => type === field.type)?.[0];
}

export function schemaOfWords(words: Record<string, string>): DatasetSchema {
  return { fieldSchemaList: Object.entries(words).map(([name, word]) => fieldOfWord(name, word)!) };
}
