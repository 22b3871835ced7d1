// Stream schemas (docs/streams.md, "Schemas"): a schema is checked once when a stream is made, and every
// record against it when published. A problem names the field (a dotted path for nested ones) in plain words.
import type { FieldDataType, StreamSchema, WireFieldSchema } from './model.js';

const SCALARS = new Set(['string', 'boolean', 'byte', 'short', 'integer', 'long', 'float', 'double', 'decimal', 'date', 'timestamp', 'binary']);
const COMPOUND = new Set(['array', 'map', 'struct']);
const INT_RANGE: Record<string, number> = { byte: 2 ** 7, short: 2 ** 15, integer: 2 ** 31 };
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export interface FieldProblem {
  field: string;
  problem: string;
}

/** Why a schema cannot serve a stream, or undefined when it can. */
export function schemaProblem(schema: unknown): string | undefined {
  if (typeof schema !== 'object' || schema === null) return 'the schema must be an object with a `fields` list';
  const fields = (schema as StreamSchema).fields;
  if (!Array.isArray(fields) || fields.length === 0) return 'the schema needs a non-empty `fields` list';
  const names = new Set<string>();
  for (const [i, f] of fields.entries()) {
    if (typeof f?.name !== 'string' || f.name === '') return `fields[${i}] has no name`;
    if (names.has(f.name)) return `field ${JSON.stringify(f.name)} is declared twice`;
    names.add(f.name);
    const problem = fieldSchemaProblem(f.schema, f.name);
    if (problem) return problem;
  }
  for (const key of (schema as StreamSchema).keyFieldNames ?? [])
    if (!names.has(key)) return `keyFieldNames names ${JSON.stringify(key)}, which is not a field`;
  return undefined;
}

function fieldSchemaProblem(s: WireFieldSchema | undefined, at: string): string | undefined {
  if (typeof s !== 'object' || s === null || typeof s.dataType?.type !== 'string') return `field ${at} has no schema.dataType.type`;
  const t = s.dataType;
  if (SCALARS.has(t.type)) return undefined;
  if (!COMPOUND.has(t.type)) return `field ${at} has the unknown type ${JSON.stringify(t.type)}`;
  if (t.type === 'array') return fieldSchemaProblem(t.itemsSchema, `${at}[]`);
  if (t.type === 'map') return fieldSchemaProblem(t.keySchema, `${at}.key`) ?? fieldSchemaProblem(t.valueSchema, `${at}.value`);
  if (!Array.isArray(t.subFields) || t.subFields.length === 0) return `struct field ${at} has no subFields`;
  for (const sub of t.subFields) {
    const problem = fieldSchemaProblem(sub?.schema, `${at}.${String(sub?.name)}`);
    if (problem) return problem;
  }
  return undefined;
}

/** The binary field of a stream that takes binary records (one field, of type binary), if it is one. */
export function binaryField(schema: StreamSchema): string | undefined {
  const [only, ...rest] = schema.fields;
  return only && rest.length === 0 && only.schema.dataType.type === 'binary' ? only.name : undefined;
}

/** Whether a record fits the schema: undefined, or the first field that does not and why. */
export function recordProblem(schema: StreamSchema, record: unknown): FieldProblem | undefined {
  if (typeof record !== 'object' || record === null || Array.isArray(record))
    return { field: '(record)', problem: 'a record must be a JSON object of field values' };
  const values = record as Record<string, unknown>;
  const known = new Set(schema.fields.map((f) => f.name));
  for (const name of Object.keys(values)) if (!known.has(name)) return { field: name, problem: 'the schema has no such field' };
  for (const f of schema.fields) {
    const problem = valueProblem(f.schema, values[f.name], f.name);
    if (problem) return problem;
  }
  return undefined;
}

function valueProblem(s: WireFieldSchema, v: unknown, at: string): FieldProblem | undefined {
  if (v === null || v === undefined) return s.nullable ? undefined : { field: at, problem: 'the field is not nullable and has no value' };
  const bad = (expected: string): FieldProblem => ({ field: at, problem: `expected ${expected}, got ${describe(v)}` });
  return typeProblem(s.dataType, v, at, bad);
}

function typeProblem(t: FieldDataType, v: unknown, at: string, bad: (expected: string) => FieldProblem): FieldProblem | undefined {
  switch (t.type) {
    case 'string':
      return typeof v === 'string' ? undefined : bad('a string');
    case 'boolean':
      return typeof v === 'boolean' ? undefined : bad('true or false');
    case 'byte':
    case 'short':
    case 'integer': {
      const max = INT_RANGE[t.type]!;
      return typeof v === 'number' && Number.isInteger(v) && v >= -max && v < max ? undefined : bad(`an integer that fits a ${t.type}`);
    }
    case 'long':
      // Longs travel as numbers or, past 2^53, as their decimal text.
      return (typeof v === 'number' && Number.isSafeInteger(v)) || (typeof v === 'string' && /^-?\d{1,19}$/.test(v)) ? undefined : bad('a long (an integer)');
    case 'float':
    case 'double':
      return typeof v === 'number' ? undefined : bad('a number');
    case 'decimal':
      return typeof v === 'number' || (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) ? undefined : bad('a decimal number');
    case 'date':
      return typeof v === 'string' && DATE.test(v) && !Number.isNaN(Date.parse(v)) ? undefined : bad('a date (YYYY-MM-DD)');
    case 'timestamp':
      return (typeof v === 'string' && !Number.isNaN(Date.parse(v))) || (typeof v === 'number' && Number.isFinite(v))
        ? undefined
        : bad('a timestamp (ISO 8601 text or epoch milliseconds)');
    case 'binary':
      return typeof v === 'string' && BASE64.test(v) ? undefined : bad('base64 text');
    case 'array': {
      if (!Array.isArray(v)) return bad('an array');
      for (const [i, item] of v.entries()) {
        const problem = valueProblem(t.itemsSchema!, item, `${at}[${i}]`);
        if (problem) return problem;
      }
      return undefined;
    }
    case 'map': {
      if (typeof v !== 'object' || Array.isArray(v)) return bad('an object (a map)');
      for (const [k, item] of Object.entries(v as Record<string, unknown>)) {
        const problem = valueProblem(t.valueSchema!, item, `${at}.${k}`);
        if (problem) return problem;
      }
      return undefined;
    }
    case 'struct': {
      if (typeof v !== 'object' || Array.isArray(v)) return bad('an object (a struct)');
      const sub = recordProblem({ fields: t.subFields! }, v);
      return sub && { field: `${at}.${sub.field}`, problem: sub.problem };
    }
    default:
      return { field: at, problem: `the schema's type ${t.type} is not one records can hold` };
  }
}

function describe(v: unknown): string {
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `the text ${JSON.stringify(v.length > 24 ? `${v.slice(0, 24)}…` : v)}`;
  if (typeof v === 'number' || typeof v === 'boolean') return `${typeof v} ${String(v)}`;
  return typeof v === 'object' ? 'an object' : typeof v;
}
