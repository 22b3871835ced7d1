// The Map-backed store: the default, and the reference behaviour for every other backend.
import type { Store } from '../store.js';
import { MemoryUsers } from './users.js';
import { MemoryClients } from './clients.js';
import { MemoryTokens } from './tokens.js';
import { MemoryOAuth } from './oauth.js';
import { MemoryEnrollment } from './enrollment.js';
import { MemoryConnections } from './connections.js';
import { MemoryOntologies } from './ontologies.js';
import { MemoryOntologyObjects } from './ontology-objects.js';
import { MemoryComputeModules } from './compute-modules.js';
import { MemoryComputeModuleJobs } from './compute-module-jobs.js';

export function createMemoryStore(): Store {
  const parts = {
    users: new MemoryUsers(),
    clients: new MemoryClients(),
    tokens: new MemoryTokens(),
    oauth: new MemoryOAuth(),
    enrollment: new MemoryEnrollment(),
    connections: new MemoryConnections(),
    ontologies: new MemoryOntologies(),
    ontologyObjects: new MemoryOntologyObjects(),
    computeModules: new MemoryComputeModules(),
    computeModuleJobs: new MemoryComputeModuleJobs(),
  };
  return {
    ...parts,
    async clear() {
      for (const part of Object.values(parts)) part.clear();
    },
    async close() {},
  };
}
