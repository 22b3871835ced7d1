// A primary key written in a URL path, read as the type's primary key: numeric keys must be canonical
// integers ("7", not "07" or "7.0"), so that one object has one address.
import type { ObjectTypeDef } from '../../../store/ontology-model.js';

/** The store key for a path segment, or undefined when no object of this type can have it. */
export function keyFromPath(type: ObjectTypeDef, raw: string): string | undefined {
  const pkType = type.properties.get(type.primaryKey)?.dataType.type;
  if (pkType === 'string') return raw;
  return /^-?(0|[1-9]\d*)$/.test(raw) && Number.isSafeInteger(Number(raw)) ? raw : undefined;
}

/** The primary key as the wire carries it for a path segment (a number for numeric keys). */
export function pkValueFromPath(type: ObjectTypeDef, raw: string): string | number {
  return type.properties.get(type.primaryKey)?.dataType.type === 'string' ? raw : Number.isFinite(Number(raw)) ? Number(raw) : raw;
}
