// The function query resolver: queries that the ontology does not seed but another service serves, namely the
// functions of compute modules (src/services/functions/, docs/functions.md). The functions service registers
// one per store when its routes are registered; the ontology routes consult it after the seeded queries, which
// always win. Kept to this one seam so that the ontology routes need not know how functions run.
import type { Store, OntologyRecord } from '../../../store/store.js';
import type { EditTemplate } from '../../../store/ontology-model.js';

export interface FunctionQueryResolver {
  /** The query types (QueryTypeV2 wire) the ontology lists beside its seeded ones. */
  list(ontology: OntologyRecord): Promise<Array<Record<string, unknown>>>;
  /** One of them by api name (and version, when given); undefined when there is none. */
  get(ontology: OntologyRecord, apiName: string): Promise<Record<string, unknown> | undefined>;
  /** Runs it: the answer to send (`{value}`) and a note for the journal; undefined when there is none. */
  execute(
    ontology: OntologyRecord,
    apiName: string,
    parameters: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<{ answer: unknown; note: string } | undefined>;
  /**
   * A function-backed action: runs the function with the action's parameters and reads the edits it returns,
   * checked against the ontology (a refusal names the edit that does not fit). `literals` fills `$` values.
   */
  actionEdits(
    ontology: OntologyRecord,
    actionType: string,
    functionApiName: string,
    parameters: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<{ templates: EditTemplate[]; literals: Record<string, unknown>; note: string }>;
}

const resolvers = new WeakMap<Store, FunctionQueryResolver>();

export const setFunctionQueryResolver = (store: Store, resolver: FunctionQueryResolver): void => void resolvers.set(store, resolver);
export const functionQueryResolverOf = (store: Store): FunctionQueryResolver | undefined => resolvers.get(store);
