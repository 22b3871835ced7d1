// Which ontology objects the dashboard's Objects and Object files views show, one page at a time
// (docs/ontology-dashboard.md). The search text may carry `ontology:NAME` and `type:NAME` words that narrow the
// object types walked; the rest is a phrase matched, case-insensitively, against the primary key and the text
// of every property value. A page is found by walking the types in order: when nothing is searched, whole
// types are skipped by their count and only the page's objects are read from the store (countOf, slice); a
// search reads each type and tests each object in place (no JSON is built for it), stopping one match after
// the page, which is enough to know whether a next page exists.
import type { OntologyObjectRecord, OntologyRecord, Store } from '../../../store/store.js';
import type { ObjectTypeDef } from '../../../store/ontology-model.js';

export interface ObjectSearch {
  /** `ontology:` words, lower case: the ontology's api name or rid must equal one. */
  ontologies: string[];
  /** `type:` words, lower case: the object type's api name must equal one. */
  types: string[];
  /** The rest of the search, lower case, '' for none. */
  text: string;
}

/** Splits a view's (already lower-cased, trimmed) search into its filter words and its phrase. */
export function parseObjectSearch(q: string): ObjectSearch {
  const search: ObjectSearch = { ontologies: [], types: [], text: '' };
  const rest: string[] = [];
  for (const word of q.split(/\s+/).filter(Boolean)) {
    const m = /^(ontology|type):(.+)$/.exec(word);
    if (m?.[1] === 'ontology') search.ontologies.push(m[2]!);
    else if (m?.[1] === 'type') search.types.push(m[2]!);
    else rest.push(word);
  }
  search.text = rest.join(' ');
  return search;
}

/** Deep enough for a struct of arrays; deeper values are not searched. */
const MAX_DEPTH = 4;

/** A test of "holds `text`, in any letter case" that lowers no string (a search reads every object). */
export function phraseTest(text: string): (s: string) => boolean {
  const re = new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'iu');
  return (s) => re.test(s);
}

/** Whether a value's text holds the phrase, read in place: strings, numbers, booleans, arrays, records. */
export function valueHolds(value: unknown, holds: (s: string) => boolean, depth = 0): boolean {
  switch (typeof value) {
    case 'string':
      return holds(value);
    case 'number':
    case 'boolean':
    case 'bigint':
      return holds(String(value));
    case 'object':
      if (value === null || depth >= MAX_DEPTH) return false;
      // Plain loops: no array of values is made per object (a search reads all of them).
      if (Array.isArray(value)) {
        for (const v of value) if (valueHolds(v, holds, depth + 1)) return true;
        return false;
      }
      for (const k in value) if (valueHolds((value as Record<string, unknown>)[k], holds, depth + 1)) return true;
      return false;
    default:
      return false;
  }
}

export const objectHolds = (o: OntologyObjectRecord, holds: (s: string) => boolean): boolean => holds(o.key) || valueHolds(o.values, holds);

export interface TypeInScope {
  ontology: OntologyRecord;
  type: ObjectTypeDef;
}

/** The object types a search walks, ontology by ontology in store order, types in seed order. */
export async function typesInScope(store: Store, search: ObjectSearch, only?: (type: ObjectTypeDef) => boolean): Promise<TypeInScope[]> {
  const out: TypeInScope[] = [];
  for (const ontology of await store.ontologies.list()) {
    if (search.ontologies.length && !search.ontologies.some((n) => n === ontology.apiName.toLowerCase() || n === ontology.rid.toLowerCase())) continue;
    for (const type of ontology.objectTypes.values()) {
      if (search.types.length && !search.types.includes(type.apiName.toLowerCase())) continue;
      if (only && !only(type)) continue;
      out.push({ ontology, type });
    }
  }
  return out;
}

export interface Hit<T> {
  scope: TypeInScope;
  item: T;
}

/** How a walk reads a type's items: all of them (for a search), or how many and one stretch (for a plain page). */
export interface TypeItems<T> {
  all(scope: TypeInScope): Promise<readonly T[]>;
  count(scope: TypeInScope): Promise<number>;
  slice(scope: TypeInScope, offset: number, limit: number): Promise<readonly T[]>;
}

/**
 * Items `offset .. offset + size - 1` of the walk, and whether one more exists. Without a search (`keep`
 * absent) whole types are skipped by their count and only the page's stretch is read; a search reads each
 * type and tests its items in place, stopping at the first match after the page.
 */
export async function pageOfWalk<T>(
  scopes: readonly TypeInScope[],
  items: TypeItems<T>,
  keep: ((item: T, scope: TypeInScope) => boolean) | undefined,
  offset: number,
  size: number,
): Promise<{ hits: Hit<T>[]; more: boolean }> {
  const hits: Hit<T>[] = [];
  let skip = offset;
  for (const scope of scopes) {
    if (!keep) {
      const count = await items.count(scope);
      if (hits.length === size) {
        if (count > 0) return { hits, more: true };
        continue;
      }
      if (skip >= count) {
        skip -= count;
        continue;
      }
      const want = size - hits.length;
      for (const item of await items.slice(scope, skip, want)) hits.push({ scope, item });
      if (hits.length === size && skip + want < count) return { hits, more: true };
      skip = 0;
      continue;
    }
    for (const item of await items.all(scope)) {
      if (!keep(item, scope)) continue;
      if (skip > 0) {
        skip--;
        continue;
      }
      if (hits.length === size) return { hits, more: true };
      hits.push({ scope, item });
    }
  }
  return { hits, more: false };
}
