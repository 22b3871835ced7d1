// What every ontology route resolves first: the ontology (apiName or rid) and the object type.
import type { Store, OntologyRecord } from '../../store/store.js';
import type { ObjectTypeDef } from '../../store/ontology-model.js';
import { objectTypeNotFound, ontologyNotFound } from './errors.js';
import { names } from './reasons.js';
import { quote } from '../../errors.js';

export interface OntologyDeps {
  store: Store;
}

/** An ontology by apiName, else by rid (the SDK's OntologyIdentifier is either). */
export async function findOntology(store: Store, identifier: string): Promise<OntologyRecord> {
  const found = (await store.ontologies.byApiName(identifier)) ?? (await store.ontologies.byRid(identifier));
  if (!found) {
    const known = (await store.ontologies.list()).map((o) => o.apiName);
    throw ontologyNotFound(identifier, identifier.startsWith('ri.')).because(
      `No ontology has the api name or rid ${quote(identifier)}; the ontologies are ${names(known)}.`,
    );
  }
  return found;
}

export function findObjectType(ontology: OntologyRecord, apiName: string): ObjectTypeDef {
  const type = ontology.objectTypes.get(apiName);
  if (!type)
    throw objectTypeNotFound(apiName).because(
      `Ontology ${ontology.apiName} has no object type ${quote(apiName)}; its object types are ${names(ontology.objectTypes.keys())}.`,
    );
  return type;
}

export const READ = { auth: { kind: 'bearer', scope: 'api:ontologies-read' } } as const;
export const WRITE = { auth: { kind: 'bearer', scope: 'api:ontologies-write' } } as const;
