// The ontology part of the seed: problems for the loader, records for applySeed. A seed is compiled once per
// seed object and the result reused, so a reset only puts the same immutable records back into the store.
import type { OntologySeed } from './seed-schema.js';
import { stableUuid } from '../../ids.js';
import { compileOntology, type CompiledOntology } from './model/compile.js';

const compiled = new WeakMap<OntologySeed, CompiledOntology>();

export const ontologyRid = (o: OntologySeed): string => o.rid ?? `ri.ontology.main.ontology.${stableUuid(`ontology:${o.api_name}`)}`;

export function compiledOntology(o: OntologySeed, index: number): CompiledOntology {
  let c = compiled.get(o);
  if (!c) compiled.set(o, (c = compileOntology(o, ontologyRid(o), `platform.ontologies[${index}]`)));
  return c;
}

/** Every problem of every ontology, each with its path (the loader reports them with the schema's). */
export function ontologyProblems(ontologies: readonly OntologySeed[]): string[] {
  const problems = ontologies.flatMap((o, i) => compiledOntology(o, i).problems);
  // A generated object list can be wrong 100,000 times over: the first ones are enough to fix it.
  return problems.length > MAX_PROBLEMS ? [...problems.slice(0, MAX_PROBLEMS), `... and ${problems.length - MAX_PROBLEMS} more problems`] : problems;
}

const MAX_PROBLEMS = 100;
