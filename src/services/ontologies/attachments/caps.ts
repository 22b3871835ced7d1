// The ontologies service's cap under `platform.limits` (docs/live-ontology.md), declared in its seed codec so
// the loader validates it with the rest of the document.
import { Type } from '@sinclair/typebox';
import type { Seed } from '../../../seed/schema.js';

export const ONTOLOGY_LIMIT_KEYS = {
  /** The largest attachment or media upload; default 200 MiB. */
  max_ontology_file_bytes: Type.Optional(Type.Integer({ minimum: 1 })),
};

/** The largest attachment or media upload. */
export const maxOntologyFileBytes = (seed: Pick<Seed, 'limits'>): number => seed.limits.max_ontology_file_bytes ?? 200 * 1024 * 1024;
