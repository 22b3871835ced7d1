// The data types of function schemas as both compute-module SDKs post them (TypeScript `@palantir/compute-module`:
// boolean, integer, float, string, list, anonymousCustomType; Python `foundry-compute-modules`: also byte, short,
// long, double, decimal, date, timestamp, binary, set, map, optionalType, ontologyEdit; and the object and object
// set references a module's own schema may name), read into one form, and
// written as the ontology API's QueryDataType (docs/functions.md, "Types").
import { isRecord } from '../ontologies/model/data-types.js';

export type Scalar = 'string' | 'boolean' | 'byte' | 'short' | 'integer' | 'long' | 'float' | 'double' | 'decimal' | 'date' | 'timestamp';

export type FnType =
  | { kind: 'scalar'; type: Scalar }
  | { kind: 'list' | 'set'; element: FnType }
  | { kind: 'map'; key: FnType; value: FnType }
  | { kind: 'optional'; inner: FnType }
  | { kind: 'struct'; fields: Array<{ name: string; type: FnType }> }
  /**
   * An ontology object (its primary key) or object set (an ObjectSet definition) of one object type. Neither
   * installed SDK posts these (docs/functions.md, "Types"): a module that posts its own schema names them so.
   */
  | { kind: 'object' | 'objectSet'; objectType: string }
  /** Edits returned for an action (a Python function declared with edits). */
  | { kind: 'edits' }
  /** A type the emulator does not map (binary, or one a newer SDK adds): values pass unchecked. */
  | { kind: 'unsupported'; name: string };

const SCALARS = new Set<string>(['string', 'boolean', 'byte', 'short', 'integer', 'long', 'float', 'double', 'decimal', 'date', 'timestamp']);
const MAX_DEPTH = 32;

/** A schema `dataType` ({type, <type>: {...}}) in our form; anything unreadable is `unsupported`. */
export function readSchemaType(raw: unknown, depth = 0): FnType {
  const name = isRecord(raw) && typeof raw.type === 'string' ? raw.type : '?';
  const body = isRecord(raw) && isRecord(raw[name]) ? (raw[name] as Record<string, unknown>) : {};
  if (depth > MAX_DEPTH) return { kind: 'unsupported', name };
  if (SCALARS.has(name)) return { kind: 'scalar', type: name as Scalar };
  const inner = (v: unknown) => readSchemaType(v, depth + 1);
  switch (name) {
    case 'list':
    case 'set':
      return body.elementsType === undefined ? { kind: 'unsupported', name } : { kind: name, element: inner(body.elementsType) };
    case 'map':
      return { kind: 'map', key: inner(body.keysType), value: inner(body.valuesType) };
    case 'optionalType':
      return { kind: 'optional', inner: inner(body.wrappedType) };
    case 'anonymousCustomType': {
      const fields = isRecord(body.fields) ? body.fields : {};
      return { kind: 'struct', fields: Object.entries(fields).map(([n, t]) => ({ name: n, type: inner(t) })) };
    }
    case 'ontologyEdit':
      return { kind: 'edits' };
    case 'objectReference':
    case 'ontologyObject':
    case 'object':
    case 'objectSet':
    case 'ontologyObjectSet': {
      const target = [body.objectTypeApiName, body.objectApiName, body.objectTypeId].find((t) => typeof t === 'string' && t !== '') as string | undefined;
      if (!target) return { kind: 'unsupported', name };
      return { kind: name === 'objectSet' || name === 'ontologyObjectSet' ? 'objectSet' : 'object', objectType: target.slice(0, 256) };
    }
    default:
      return { kind: 'unsupported', name: name.slice(0, 64) };
  }
}

/** QueryDataType of @osdk/foundry.ontologies (the functions API's QueryDataType has the same shapes). */
export function queryDataTypeWire(t: FnType): Record<string, unknown> {
  switch (t.kind) {
    case 'scalar':
      return { type: t.type };
    case 'list':
      return { type: 'array', subType: queryDataTypeWire(t.element) };
    case 'set':
      return { type: 'set', subType: queryDataTypeWire(t.element) };
    case 'map':
      return { type: 'entrySet', keyType: queryDataTypeWire(t.key), valueType: queryDataTypeWire(t.value) };
    case 'optional':
      // A query type has no optional type: the wrapped one, with `null` accepted as a value.
      return queryDataTypeWire(t.inner);
    case 'struct':
      return { type: 'struct', fields: t.fields.map((f) => ({ name: f.name, fieldType: queryDataTypeWire(f.type), required: f.type.kind !== 'optional' })) };
    case 'object':
    case 'objectSet':
      return { type: t.kind, objectApiName: t.objectType, objectTypeApiName: t.objectType };
    case 'edits':
      return { type: 'void' };
    case 'unsupported':
      return { type: 'unsupported', unsupportedType: t.name };
  }
}

const INT: Partial<Record<Scalar, [number, number]>> = {
  byte: [-128, 127],
  short: [-32768, 32767],
  integer: [-2147483648, 2147483647],
  long: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

function scalarProblem(type: Scalar, v: unknown): string | undefined {
  switch (type) {
    case 'string':
      return typeof v === 'string' ? undefined : 'must be a string';
    case 'boolean':
      return typeof v === 'boolean' ? undefined : 'must be true or false';
    case 'float':
    case 'double':
      return typeof v === 'number' && Number.isFinite(v) ? undefined : 'must be a number';
    case 'decimal':
      return (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v)) ? undefined : 'must be a decimal number';
    case 'date':
      return typeof v === 'string' && DATE.test(v) && !Number.isNaN(Date.parse(v)) ? undefined : 'must be a date YYYY-MM-DD';
    case 'timestamp':
      return typeof v === 'string' && TIMESTAMP.test(v) && !Number.isNaN(Date.parse(v)) ? undefined : 'must be an ISO 8601 timestamp with a zone';
    default: {
      const [min, max] = INT[type]!;
      // A long may come as a string (the platform SDKs send longs past 2^53 that way).
      const n = type === 'long' && typeof v === 'string' && /^-?\d{1,19}$/.test(v) ? Number(v) : v;
      return Number.isInteger(n) && (((n as number) >= min && (n as number) <= max) || type === 'long')
        ? undefined
        : `must be an integer of type ${type} (${min} to ${max})`;
    }
  }
}

/**
 * Checks a value against the type and converts it between the caller's wire form and the module's: a map is a
 * list of `{key, value}` entries for the caller (entrySet) and an object for the module. `toModule` says which
 * way. The answer is the converted value, or the problem (which names the place within the value).
 */
export function convert(t: FnType, v: unknown, toModule: boolean, at = ''): { value: unknown } | { problem: string } {
  if (v === null || v === undefined)
    return t.kind === 'optional' || t.kind === 'unsupported' || t.kind === 'edits' ? { value: null } : { problem: `${at || 'the value'} must not be null` };
  const here = at || 'the value';
  switch (t.kind) {
    case 'scalar': {
      const p = scalarProblem(t.type, v);
      return p ? { problem: `${here} ${p}` } : { value: v };
    }
    case 'optional':
      return convert(t.inner, v, toModule, at);
    case 'list':
    case 'set': {
      if (!Array.isArray(v)) return { problem: `${here} must be a list` };
      const out: unknown[] = [];
      for (const [i, e] of v.entries()) {
        const r = convert(t.element, e, toModule, `${at}[${i}]`);
        if ('problem' in r) return r;
        out.push(r.value);
      }
      return { value: out };
    }
    case 'map': {
      const entries = toModule ? (Array.isArray(v) ? v : undefined) : isRecord(v) ? Object.entries(v).map(([key, value]) => ({ key, value })) : undefined;
      if (!entries) return { problem: `${here} must be ${toModule ? 'a list of {key, value} entries' : 'a mapping'}` };
      const out: Array<{ key: unknown; value: unknown }> = [];
      for (const [i, e] of entries.entries()) {
        if (!isRecord(e) || !('key' in e)) return { problem: `${at}[${i}] must be an entry {key, value}` };
        // The module's JSON object keys are strings: a numeric key type is read back from them.
        const rawKey =
          !toModule && t.key.kind === 'scalar' && t.key.type !== 'string' && typeof e.key === 'string' && /^-?\d+(\.\d+)?$/.test(e.key) ? Number(e.key) : e.key;
        const k = convert(t.key, rawKey, toModule, `${at}[${i}].key`);
        if ('problem' in k) return k;
        const val = convert(t.value, e.value, toModule, `${at}[${i}].value`);
        if ('problem' in val) return val;
        out.push({ key: k.value, value: val.value });
      }
      return { value: toModule ? Object.fromEntries(out.map((e) => [String(e.key), e.value])) : out };
    }
    case 'struct': {
      if (!isRecord(v)) return { problem: `${here} must be a mapping of the struct fields (${t.fields.map((f) => f.name).join(', ')})` };
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v))
        if (!t.fields.some((f) => f.name === k) && toModule)
          return { problem: `${here} has no field "${k.slice(0, 64)}" (fields: ${t.fields.map((f) => f.name).join(', ')})` };
      for (const f of t.fields) {
        const r = convert(f.type, v[f.name], toModule, `${at}.${f.name}`);
        if ('problem' in r) return r;
        if (r.value !== null) out[f.name] = r.value;
      }
      return { value: out };
    }
    case 'object':
      // Its primary key, as the SDKs send an object (and the module gets it); existence is checked by the caller.
      return typeof v === 'string' || Number.isInteger(v) ? { value: v } : { problem: `${here} must be the primary key of a ${t.objectType}` };
    case 'objectSet':
      // An ObjectSet definition ({type: "base", objectType}, filters, ...), passed to the module as it is.
      return isRecord(v) && typeof v.type === 'string'
        ? { value: v }
        : { problem: `${here} must be an object set definition of ${t.objectType} ({type, ...})` };
    case 'edits':
    case 'unsupported':
      return { value: v };
  }
}

/** Whether a parameter of this type may be left out. */
export const optional = (t: FnType): boolean => t.kind === 'optional';
