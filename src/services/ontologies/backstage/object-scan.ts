// Which ontology objects the dashboard's Objects and Object files views show, one page at a time
// (docs/ontology-dashboard.md). The search text may carry `ontology:NAME` and `type:NAME` words that narrow the
// object types walked; the rest is a phrase matched, case-insensitively, against the primary key and the text
// of every property value. A page is found by walking the types in order and skipping whole types by their
// length when nothing is searched; a search tests each object in place (no JSON is built for it) and stops
// one match after the page, which is enough to know whether a next page exists.
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

/** Whether a value's text holds `text` (lower case), read in place: strings, numbers, booleans, arrays, records. */
export function valueHolds(value: unknown, text: string, depth = 0): boolean {
  switch (typeof value) {
    case 'string':
      return value.toLowerCase().includes(text);
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(value).toLowerCase().includes(text);
    case 'object':
      if (value === null || depth >= MAX_DEPTH) return false;
      if (Array.isArray(value)) return value.some((v) => valueHolds(v, text, depth + 1));
      for (const v of Object.values(value)) if (valueHolds(v, text, depth + 1)) return true;
      return false;
    default:
      return false;
  }
}

export const objectHolds = (o: OntologyObjectRecord, text: string): boolean => text === '' || o.key.toLowerCase().includes(text) || valueHolds(o.values, text);

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

/**
 * Items `offset .. offset + size` of the walk, and whether one more exists. `itemsOf` gives a type's items in
 * order (the store's list, or what a list unfolds to); `keep` is the search's test, absent when nothing is
 * searched, in which case whole types are skipped by their length.
 */
export async function pageOfWalk<T>(
  scopes: readonly TypeInScope[],
  itemsOf: (scope: TypeInScope) => Promise<readonly T[]>,
  keep: ((item: T, scope: TypeInScope) => boolean) | undefined,
  offset: number,
  size: number,
): Promise<{ hits: Hit<T>[]; more: boolean }> {
  const hits: Hit<T>[] = [];
  let skip = offset;
  for (const scope of scopes) {
    const items = await itemsOf(scope);
    if (!keep) {
      if (skip >= items.length) {
        skip -= items.length;
        continue;
      }
      const end = skip + (size - hits.length);
      for (const item of items.slice(skip, end)) hits.push({ scope, item });
      skip = 0;
      if (hits.length === size && end < items.length) return { hits, more: true };
      if (hits.length === size) {
        // Full: a next page exists when a later type holds anything.
        const later = scopes.slice(scopes.indexOf(scope) + 1);
        for (const s of later) if ((await itemsOf(s)).length > 0) return { hits, more: true };
        return { hits, more: false };
      }
      continue;
    }
    for (const item of items) {
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
