// Ordering, paging and property selection of a list of objects (LoadObjectSetResponseV2 and friends).
// Paging is by position in a deterministic order (the requested order, ties in store order), so walking
// every page of an unchanged set returns each object exactly once.
import type { OntologyObjectRecord, OntologyRecord } from '../../../store/store.js';
import type { ObjectTypeDef } from '../../../store/ontology-model.js';
import { isRecord } from '../model/data-types.js';
import { comparatorFor } from './compare.js';
import { objectWire } from './object-wire.js';
import { findObjectType } from '../context.js';
import { invalidRequest, notSupported, propertiesNotFound } from '../errors.js';

export const DEFAULT_PAGE_SIZE = 1000;
export const MAX_PAGE_SIZE = 10000;

export interface PageRequest {
  orderBy?: unknown;
  pageSize?: unknown;
  pageToken?: unknown;
  select?: unknown;
  selectV2?: unknown;
  excludeRid?: unknown;
}

export interface Page {
  data: Array<Record<string, unknown>>;
  nextPageToken?: string;
  totalCount: string;
}

export function pageOf(ontology: OntologyRecord, objectType: ObjectTypeDef | undefined, objects: readonly OntologyObjectRecord[], req: PageRequest): Page {
  const size = pageSize(req.pageSize);
  const start = pageStart(req.pageToken);
  const ordered = objectType ? order(objectType, objects, req.orderBy) : objects;
  const select = selection(objectType, req.select, req.selectV2);
  const end = Math.min(start + size, ordered.length);
  const data: Array<Record<string, unknown>> = [];
  for (let i = start; i < end; i++) {
    const o = ordered[i]!;
    const type = objectType ?? findObjectType(ontology, o.objectType);
    data.push(objectWire(ontology.rid, type, o, { select, excludeRid: req.excludeRid === true }));
  }
  const page: Page = { data, totalCount: String(ordered.length) };
  if (end < ordered.length) page.nextPageToken = Buffer.from(`o:${end}`).toString('base64url');
  return page;
}

function pageSize(raw: unknown): number {
  if (raw === undefined || raw === null) return DEFAULT_PAGE_SIZE;
  const n = typeof raw === 'string' ? Number(raw) : raw;
  if (!Number.isInteger(n) || (n as number) < 1) throw invalidRequest('pageSize', 'must be a positive integer');
  return Math.min(n as number, MAX_PAGE_SIZE);
}

function pageStart(raw: unknown): number {
  if (raw === undefined || raw === null || raw === '') return 0;
  const text = typeof raw === 'string' ? Buffer.from(raw, 'base64url').toString() : '';
  const m = /^o:(\d+)$/.exec(text);
  if (!m) throw invalidRequest('pageToken', 'not a page token this service handed out');
  return Number(m[1]);
}

/** orderBy: {fields: [{field, direction}]} (SearchOrderByV2); a relevance order is refused. */
export function order(type: ObjectTypeDef, objects: readonly OntologyObjectRecord[], raw: unknown): readonly OntologyObjectRecord[] {
  if (raw === undefined || raw === null) return objects;
  if (!isRecord(raw) || !Array.isArray(raw.fields)) throw invalidRequest('orderBy', 'must be {fields: [{field, direction}]}');
  if (raw.orderType !== undefined && raw.orderType !== 'fields') throw notSupported('orderBy orderType', String(raw.orderType));
  if (raw.fields.length === 0) return objects;
  const keys = raw.fields.map((f) => {
    const field = isRecord(f) ? f.field : undefined;
    if (typeof field !== 'string') throw invalidRequest('orderBy.fields', 'each entry needs a field');
    const prop = type.properties.get(field);
    if (!prop) throw propertiesNotFound(type.apiName, [field]);
    const compare = comparatorFor(prop.dataType);
    if (!compare) throw notSupported('orderBy on a property of type', prop.dataType.type);
    const direction = (f as { direction?: unknown }).direction ?? 'asc';
    if (direction !== 'asc' && direction !== 'desc' && direction !== 'ASC' && direction !== 'DESC')
      throw invalidRequest('orderBy.direction', 'must be asc or desc');
    return { field, compare, sign: String(direction).toLowerCase() === 'desc' ? -1 : 1 };
  });
  // Array.prototype.sort is stable: ties keep store order. Absent values last in either direction.
  return [...objects].sort((a, b) => {
    for (const k of keys) {
      const x = a.values[k.field];
      const y = b.values[k.field];
      if (x === undefined || y === undefined) {
        if (x !== y) return x === undefined ? 1 : -1;
        continue;
      }
      const c = k.compare(x, y) * k.sign;
      if (c !== 0) return c;
    }
    return 0;
  });
}

/** select (property names) and selectV2 (property identifiers) together; empty means every property. */
export function selection(type: ObjectTypeDef | undefined, select: unknown, selectV2: unknown): ReadonlySet<string> | undefined {
  const names: string[] = [];
  if (select !== undefined && select !== null) {
    const list = Array.isArray(select) ? select : [select];
    for (const s of list) if (typeof s === 'string' && s) names.push(...s.split(',').filter(Boolean));
  }
  if (Array.isArray(selectV2)) {
    for (const s of selectV2) {
      if (isRecord(s) && s.type === 'property' && typeof s.apiName === 'string') names.push(s.apiName);
      else throw notSupported('selectV2 entry', isRecord(s) ? String(s.type) : typeof s);
    }
  }
  if (names.length === 0) return undefined;
  if (type) {
    const missing = names.filter((n) => !type.properties.has(n));
    if (missing.length) throw propertiesNotFound(type.apiName, missing);
  }
  return new Set(names);
}
