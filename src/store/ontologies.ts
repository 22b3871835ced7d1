// Ontologies and their seeded queries.

export interface OntologyRecord {
  rid: string;
  apiName: string;
  displayName: string;
  description: string;
  /** Query api name to the seeded result as JSON bytes, serialized once when seeded; in seed order. */
  queries: Map<string, Buffer>;
}

export interface OntologyRepo {
  /** False when the api name or rid is taken. */
  insert(ontology: OntologyRecord): Promise<boolean>;
  /** Sets (or adds) the result a query answers with; false when there is no such ontology. */
  setQueryResult(apiName: string, queryApiName: string, result: Buffer): Promise<boolean>;
  /** Seed order. */
  list(): Promise<OntologyRecord[]>;
  byApiName(apiName: string): Promise<OntologyRecord | undefined>;
  byRid(rid: string): Promise<OntologyRecord | undefined>;
  count(): Promise<number>;
}
