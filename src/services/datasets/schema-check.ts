// What putSchema accepts (docs/datasets.md, "Schemas"): every field's type one of the wire's SchemaFieldType
// values, nested ones too, an ARRAY with its item type, and no two top-level columns of one name. A schema
// that breaks these would be stored and then read wrongly (a column named twice reads one file column twice).
import { invalidArgument } from '../../errors.js';
import type { DatasetSchema, FieldSchema } from './model.js';

// `@osdk/foundry.core` 2.38.0's SchemaFieldType.
const FIELD_TYPES = new Set([
  'ARRAY',
  'BINARY',
  'BOOLEAN',
  'BYTE',
  'DATE',
  'DECIMAL',
  'DOUBLE',
  'FLOAT',
  'INTEGER',
  'LONG',
  'MAP',
  'SHORT',
  'STRING',
  'STRUCT',
  'TIMESTAMP',
]);

const invalidField = (fieldName: string, message: string) => invalidArgument('InvalidFieldSchema', { fieldName, message }).because(message);

function checkField(field: FieldSchema, name: string, depth: number): void {
  if (depth > 32) throw invalidField(name, `field ${JSON.stringify(name)} nests more than 32 levels`);
  if (!FIELD_TYPES.has(field.type))
    throw invalidField(name, `field ${JSON.stringify(name)} has type ${JSON.stringify(String(field.type).slice(0, 32))}, not a schema field type`);
  if (field.type === 'ARRAY' && !isField(field.arraySubtype)) throw invalidField(name, `ARRAY field ${JSON.stringify(name)} has no arraySubtype`);
  if (field.type === 'DECIMAL' && !(wholeAtLeast(field.precision, 1) && wholeAtLeast(field.scale, 0)))
    throw invalidField(name, `DECIMAL field ${JSON.stringify(name)} needs a positive whole precision and a scale of 0 or more`);
  // The wire's DecimalType allows a precision up to 38, and a scale cannot have more digits than the precision.
  if (field.type === 'DECIMAL' && typeof field.precision === 'number' && field.precision > MAX_PRECISION)
    throw invalidField(name, `DECIMAL field ${JSON.stringify(name)} has precision ${field.precision}; the most is ${MAX_PRECISION}`);
  if (field.type === 'DECIMAL' && typeof field.precision === 'number' && typeof field.scale === 'number' && field.scale > field.precision)
    throw invalidField(name, `DECIMAL field ${JSON.stringify(name)} has scale ${field.scale} above its precision ${field.precision}`);
  for (const key of ['arraySubtype', 'mapKeyType', 'mapValueType'] as const) {
    const inner = field[key];
    if (inner !== undefined) {
      if (!isField(inner)) throw invalidField(name, `${key} of field ${JSON.stringify(name)} is not a field schema`);
      checkField(inner, name, depth + 1);
    }
  }
  const subs = field.subSchemas;
  if (subs !== undefined) {
    if (!Array.isArray(subs) || !subs.every(isField)) throw invalidField(name, `subSchemas of field ${JSON.stringify(name)} is not a list of field schemas`);
    for (const sub of subs) checkField(sub, `${name}.${String(sub.name ?? '')}`, depth + 1);
  }
}

const MAX_PRECISION = 38;

/** Absent, or a whole number of at least `least`. */
const wholeAtLeast = (value: unknown, least: number) => value === undefined || (Number.isInteger(value) && (value as number) >= least);

const isField = (value: unknown): value is FieldSchema =>
  typeof value === 'object' && value !== null && typeof (value as FieldSchema).type === 'string' && typeof (value as FieldSchema).nullable === 'boolean';

/** Throws InvalidFieldSchema or InvalidSchema for a schema a read could not serve faithfully. */
export function checkSchema(schema: DatasetSchema): void {
  const seen = new Set<string>();
  for (const [i, field] of schema.fieldSchemaList.entries()) {
    const name = typeof field.name === 'string' ? field.name : `#${i + 1}`;
    // A top-level column is read by its name: without one, a read would look for a made-up one.
    if (typeof field.name !== 'string' || field.name === '')
      throw invalidField(name, `column ${i + 1}'s name is ${field.name === '' ? 'empty' : field.name === undefined ? 'missing' : 'not text'}`);
    checkField(field, name, 0);
    if (seen.has(field.name))
      throw invalidArgument('InvalidSchema', { errorType: 'DUPLICATE_FIELD_NAME', message: `column ${JSON.stringify(field.name)} is named twice` }).because(
        `column ${JSON.stringify(field.name)} is named twice in the schema`,
      );
    seen.add(field.name);
  }
}
