// The `datasets` seed key (docs/datasets.md, "Seed"): its shape, and the column-type words a seed schema uses.
import { isDeepStrictEqual } from 'node:util';
import { Type, type Static } from '@sinclair/typebox';
import { PlatformError } from '../../errors.js';
import { fieldPath } from '../../field-path.js';
import type { DatasetSchema, FieldSchema } from './model.js';
import { checkSchema } from './schema-check.js';

const SeedFile = Type.Object(
  {
    path: Type.String(),
    /** The file's text, as it is. */
    content: Type.Optional(Type.String()),
    /** Binary content (a Parquet file) in base64: what the export writes for bytes that are not text. */
    content_base64: Type.Optional(Type.String()),
    /** A file beside the seed (relative to the seed file's folder). */
    from: Type.Optional(Type.String({ minLength: 1 })),
    /** Its media type (`image/png`, `text/csv; charset=utf-8`); default `text/csv` for a `.csv` path, else `application/octet-stream`. */
    content_type: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const DatasetSeed = Type.Object(
  {
    rid: Type.Optional(Type.String({ pattern: '^ri\\.foundry\\.main\\.dataset\\.[A-Za-z0-9-]+$' })),
    name: Type.String({ minLength: 1 }),
    parent_folder_rid: Type.String({ minLength: 1, default: 'ri.compass.main.folder.root' }),
    /**
     * Column name -> type word (string, integer, long, double, float, boolean, date, timestamp, decimal, short,
     * byte, array<T>), or the column's field schema as the API takes it (`{type: DECIMAL, precision: 10, scale: 2,
     * nullable: false}`) for what a word cannot say. The export writes a word where one says it all.
     */
    schema: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Object({ type: Type.String() }, { additionalProperties: true })]))),
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

/** A seed column: its type word, or its field schema (without its name). */
export type SeedColumn = string | ({ type: string } & Record<string, unknown>);

/** A seed column as a field schema; undefined for an unknown word (a field schema is checked as putSchema checks). */
export function fieldOfSeed(name: string, column: SeedColumn): FieldSchema | undefined {
  return typeof column === 'string' ? fieldOfWord(name, column) : { nullable: true, ...column, name };
}

/** A field schema as a seed column: its word where the word gives back exactly this field, else the field itself. */
export function seedOfField(field: FieldSchema & { name: string }): SeedColumn {
  const word = wordOfField(field);
  if (word !== undefined && isDeepStrictEqual(fieldOfWord(field.name, word), field)) return word;
  const { name: _name, ...column } = field;
  return column;
}

export function schemaOfSeed(columns: Record<string, SeedColumn>): DatasetSchema {
  return { fieldSchemaList: Object.entries(columns).map(([name, column]) => fieldOfSeed(name, column)!) };
}

/**
 * Every problem of a seed schema, each at its column's path (`...schema.price`): the rules putSchema applies, one
 * column at a time, so that one bad column neither hides the others' problems nor stops them being checked.
 */
export function seedSchemaProblems(columns: Record<string, SeedColumn>, datasetAt: string): string[] {
  const problems: string[] = [];
  for (const [name, column] of Object.entries(columns)) {
    const where = `${datasetAt}.${fieldPath(['schema', name])}`;
    const field = fieldOfSeed(name, column);
    if (!field) problems.push(`${where}: unknown column type ${JSON.stringify(column)}`);
    else if (name === '') problems.push(`${where}: the column's name is empty`);
    else {
      try {
        checkSchema({ fieldSchemaList: [field] });
      } catch (e) {
        if (!(e instanceof PlatformError)) throw e;
        problems.push(`${where}: ${e.reason ?? e.message}`);
      }
    }
  }
  return problems;
}
