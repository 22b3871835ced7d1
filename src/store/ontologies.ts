// Ontologies and their seeded queries, object types and action types (definitions; objects: ontology-objects.ts).
import type { ActionTypeDef, ObjectTypeDef, QueryDef } from './ontology-model.js';

export interface OntologyRecord {
  rid: string;
  apiName: string;
  displayName: string;
  description: string;
  /** Query api name to the seeded result as JSON bytes, serialized once when seeded; in seed order. */
  queries: Map<string, Buffer>;
  /** Typed query definitions, by api name, seed order (every seeded query has one). */
  queryTypes: Map<string, QueryDef>;
  objectTypes: Map<string, ObjectTypeDef>;
  actionTypes: Map<string, ActionTypeDef>;
}

export interface OntologyRepo {
  /** False when the api name or rid is taken. */
  insert(ontology: OntologyRecord): Promise<boolean>;
  /**
   * Sets (or adds) the result a query answers with when none of its cases matches (the seed's `result`);
   * a query that has no definition yet gets `definition` (an untyped one), in the same step. False when
   * there is no such ontology.
   */
  setQueryResult(apiName: string, queryApiName: string, result: Buffer, definition?: QueryDef): Promise<boolean>;
  /** Seed order. */
  list(): Promise<OntologyRecord[]>;
  byApiName(apiName: string): Promise<OntologyRecord | undefined>;
  byRid(rid: string): Promise<OntologyRecord | undefined>;
  count(): Promise<number>;
}
