// Data types of properties and parameters: read from the seed (a name or the SDK's data type object), values
// checked against them (seed objects, query and action parameters, filter values), and written in the SDK's
// three wire forms (ObjectPropertyType, QueryDataType, ActionParameterType). No Fastify here: the seed uses it too.
import { SCALAR_TYPES, type DataType, type ScalarType } from '../../../store/ontology-model.js';
import { fileValueProblem } from '../attachments/values.js';

/** Types the SDK knows that a seed cannot express (no YAML form for their values here). */
const REFUSED = [
  'cipherText',
  'geoshape',
  'geotimeSeriesReference',
  'marking',
  'timeseries',
  'vector',
  'geohash',
  'objectSet',
  'interfaceObject',
  'set',
  'union',
  'map',
];

export type TypeUse = 'property' | 'parameter';

/** Reads a seed data type; problems are pushed as `path: message`. */
export function parseDataType(raw: unknown, path: string, use: TypeUse, problems: string[]): DataType | undefined {
  const name = typeof raw === 'string' ? raw : isRecord(raw) && typeof raw.type === 'string' ? raw.type : undefined;
  if (name === undefined) {
    problems.push(`${path}: must be a data type name (string, integer, ...) or a mapping with \`type\``);
    return undefined;
  }
  if ((SCALAR_TYPES as readonly string[]).includes(name)) return { type: name as ScalarType };
  const o = isRecord(raw) ? raw : {};
  if (name === 'array') {
    if (o.subType === undefined) return void problems.push(`${path}.subType: required for an array`);
    const subType = parseDataType(o.subType, `${path}.subType`, use, problems);
    return subType && { type: 'array', subType };
  }
  if (name === 'struct') return parseStruct(o, path, use, problems);
  if (name === 'attachment' || name === 'mediaReference') return { type: name };
  if (name === 'object' && use === 'parameter') {
    const target = o.objectTypeApiName ?? o.objectApiName;
    if (typeof target !== 'string' || !target) return void problems.push(`${path}.objectTypeApiName: required for an object (the object type's api_name)`);
    return { type: 'object', objectType: target };
  }
  const why = REFUSED.includes(name) || name === 'object' ? 'not supported by the emulator' : 'unknown';
  problems.push(
    `${path}: data type "${short(name)}" is ${why}; supported: ${[...SCALAR_TYPES, 'array', 'struct', 'attachment', 'mediaReference', ...(use === 'parameter' ? ['object'] : [])].join(', ')}`,
  );
  return undefined;
}

function parseStruct(o: Record<string, unknown>, path: string, use: TypeUse, problems: string[]): DataType | undefined {
  // The property form lists structFieldTypes [{apiName, dataType}]; the query form fields [{name, fieldType}].
  const list = Array.isArray(o.structFieldTypes) ? o.structFieldTypes : Array.isArray(o.fields) ? o.fields : undefined;
  const key = Array.isArray(o.structFieldTypes) ? 'structFieldTypes' : 'fields';
  if (!list || list.length === 0) return void problems.push(`${path}: a struct needs structFieldTypes: [{apiName, dataType}] (or fields: [{name, fieldType}])`);
  const fields: Array<{ name: string; type: DataType }> = [];
  for (const [i, f] of list.entries()) {
    const name = isRecord(f) ? (f.apiName ?? f.name) : undefined;
    const rawType = isRecord(f) ? (f.dataType ?? f.fieldType) : undefined;
    if (typeof name !== 'string' || !name) {
      problems.push(`${path}.${key}[${i}]: needs a name (apiName or name)`);
      continue;
    }
    const type = parseDataType(rawType, `${path}.${key}[${i}].${key === 'fields' ? 'fieldType' : 'dataType'}`, use, problems);
    if (type && (type.type === 'struct' || type.type === 'array')) problems.push(`${path}.${key}[${i}]: a struct field must be a scalar`);
    else if (type) fields.push({ name, type });
  }
  return { type: 'struct', fields };
}

const INT_RANGE: Partial<Record<ScalarType, [number, number]>> = {
  byte: [-128, 127],
  short: [-32768, 32767],
  integer: [-2147483648, 2147483647],
  long: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** Why `value` is not a value of `type` (undefined when it is). `null` is handled by the caller. */
export function valueProblem(type: DataType, value: unknown): string | undefined {
  switch (type.type) {
    case 'string':
      return typeof value === 'string' ? undefined : 'must be a string';
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    case 'byte':
    case 'short':
    case 'integer':
    case 'long': {
      const [min, max] = INT_RANGE[type.type]!;
      return Number.isInteger(value) && (value as number) >= min && (value as number) <= max
        ? undefined
        : `must be an integer of type ${type.type} (${min} to ${max})`;
    }
    case 'double':
    case 'float':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : 'must be a number';
    case 'decimal':
      return (typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value))
        ? undefined
        : 'must be a decimal number';
    case 'date':
      return typeof value === 'string' && isDate(value) ? undefined : 'must be a date YYYY-MM-DD';
    case 'timestamp':
      return typeof value === 'string' && TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value))
        ? undefined
        : 'must be an ISO 8601 timestamp with a zone (2024-01-02T03:04:05Z)';
    case 'geopoint':
      return isGeoPoint(value) ? undefined : 'must be a GeoJSON point {type: Point, coordinates: [longitude, latitude]}';
    case 'array': {
      if (!Array.isArray(value)) return 'must be a list';
      for (const [i, v] of value.entries()) {
        const p = v === null ? 'must not be null' : valueProblem(type.subType, v);
        if (p) return `[${i}] ${p}`;
      }
      return undefined;
    }
    case 'struct': {
      if (!isRecord(value)) return 'must be a mapping of the struct fields';
      for (const [k, v] of Object.entries(value)) {
        const field = type.fields.find((f) => f.name === k);
        if (!field) return `has no field "${short(k)}" (fields: ${type.fields.map((f) => f.name).join(', ')})`;
        const p = v === null ? undefined : valueProblem(field.type, v);
        if (p) return `.${k} ${p}`;
      }
      return undefined;
    }
    case 'object':
      return typeof value === 'string' || Number.isInteger(value) ? undefined : `must be the primary key of a ${type.objectType}`;
    case 'attachment':
    case 'mediaReference':
      return fileValueProblem(type.type, value);
  }
}

function isDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

function isGeoPoint(v: unknown): boolean {
  if (!isRecord(v) || v.type !== 'Point' || !Array.isArray(v.coordinates)) return false;
  const [lon, lat] = v.coordinates as unknown[];
  return v.coordinates.length >= 2 && typeof lon === 'number' && typeof lat === 'number' && Math.abs(lon) <= 180 && Math.abs(lat) <= 90;
}

/** ObjectPropertyType. */
export function propertyTypeWire(t: DataType): Record<string, unknown> {
  if (t.type === 'array') return { type: 'array', subType: propertyTypeWire(t.subType), reducers: [] };
  if (t.type === 'struct')
    return {
      type: 'struct',
      structFieldTypes: t.fields.map((f) => ({
        apiName: f.name,
        rid: `ri.ontology.main.struct-field.${f.name}`,
        dataType: propertyTypeWire(f.type),
        typeClasses: [],
      })),
    };
  return { type: t.type };
}

/** QueryDataType. */
export function queryTypeWire(t: DataType): Record<string, unknown> {
  if (t.type === 'array') return { type: 'array', subType: queryTypeWire(t.subType) };
  if (t.type === 'struct') return { type: 'struct', fields: t.fields.map((f) => ({ name: f.name, fieldType: queryTypeWire(f.type) })) };
  if (t.type === 'object') return { type: 'object', objectApiName: t.objectType, objectTypeApiName: t.objectType };
  return { type: t.type };
}

/** ActionParameterType. */
export function actionTypeWire(t: DataType): Record<string, unknown> {
  if (t.type === 'array') return { type: 'array', subType: actionTypeWire(t.subType) };
  if (t.type === 'struct') return { type: 'struct', fields: t.fields.map((f) => ({ name: f.name, fieldType: actionTypeWire(f.type), required: false })) };
  if (t.type === 'object') return { type: 'object', objectApiName: t.objectType, objectTypeApiName: t.objectType };
  return { type: t.type };
}

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value short enough to quote in a message (docs/contracts.md §1: at most 64 characters). */
export const short = (s: string): string => (s.length > 64 ? `${s.slice(0, 63)}…` : s);
