// The tables of the services that came before the store parts (users, OAuth, connectivity, ontologies, compute
// modules). Their PostgreSQL tables are made by the shared migrations 1-6 (postgres/migrations.ts), which
// shipped before parts had migrations of their own, so these parts bring none; a new part brings its own.
// The services' modules list these parts, so the reset, the PostgreSQL pass's coverage check and the
// state tables all derive from the service list.
import type { PartRegistry, StorePart } from './parts.js';
import type { UserRepo } from './users.js';
import type { ClientRepo } from './clients.js';
import type { TokenRepo } from './tokens.js';
import type { OAuthRepo } from './oauth.js';
import type { EnrollmentRepo } from './enrollment.js';
import type { ConnectionRepo } from './connections.js';
import type { OntologyRepo } from './ontologies.js';
import type { OntologyObjectRepo } from './ontology-objects.js';
import type { ComputeModuleRepo } from './compute-modules.js';
import type { ComputeModuleJobRepo } from './compute-module-jobs.js';
import { MemoryUsers } from './memory/users.js';
import { MemoryClients } from './memory/clients.js';
import type { MemoryClients as MemoryClientsRepo } from './memory/clients.js';
import { MemoryTokens } from './memory/tokens.js';
import type { MemoryUsers as MemoryUsersRepo } from './memory/users.js';
import { MemoryOAuth } from './memory/oauth.js';
import { MemoryEnrollment } from './memory/enrollment.js';
import { MemoryConnections } from './memory/connections.js';
import { MemoryOntologies } from './memory/ontologies.js';
import { MemoryOntologyObjects } from './memory/ontology-objects.js';
import { MemoryComputeModules } from './memory/compute-modules.js';
import { MemoryComputeModuleJobs } from './memory/compute-module-jobs.js';
import { PgUsers } from './postgres/users.js';
import { PgClients } from './postgres/clients.js';
import { PgTokens } from './postgres/tokens.js';
import { PgOAuth } from './postgres/oauth.js';
import { PgEnrollment } from './postgres/enrollment.js';
import { PgConnections } from './postgres/connections.js';
import { PgOntologies } from './postgres/ontologies.js';
import { PgOntologyObjects } from './postgres/ontology-objects.js';
import { PgComputeModules } from './postgres/compute-modules.js';
import { PgComputeModuleJobs } from './postgres/compute-module-jobs.js';

const legacy = { migrations: [] } as const;

export const USERS: StorePart<UserRepo> = { ...legacy, name: 'users', tables: ['users'], memory: () => new MemoryUsers(), postgres: (db) => new PgUsers(db) };
export const CLIENTS: StorePart<ClientRepo> = {
  ...legacy,
  name: 'clients',
  tables: ['clients'],
  memory: () => new MemoryClients(),
  postgres: (db) => new PgClients(db),
};
export const TOKENS: StorePart<TokenRepo> = {
  ...legacy,
  name: 'tokens',
  tables: ['access_tokens'], // The memory store builds the memory users and clients: its one-step mint reads them directly.
  memory: (part) => new MemoryTokens(part(USERS) as MemoryUsersRepo, part(CLIENTS) as MemoryClientsRepo),
  postgres: (db) => new PgTokens(db),
};
export const OAUTH: StorePart<OAuthRepo> = {
  ...legacy,
  name: 'oauth',
  tables: ['authorize_requests', 'codes', 'refresh_tokens', 'revoked_grants'],
  memory: () => new MemoryOAuth(),
  postgres: (db) => new PgOAuth(db),
};
export const ENROLLMENT: StorePart<EnrollmentRepo> = {
  ...legacy,
  name: 'enrollment',
  tables: ['enrollment'],
  memory: () => new MemoryEnrollment(),
  postgres: (db) => new PgEnrollment(db),
};
export const CONNECTIONS: StorePart<ConnectionRepo> = {
  ...legacy,
  name: 'connections',
  tables: ['connections'],
  memory: () => new MemoryConnections(),
  postgres: (db) => new PgConnections(db),
};
export const ONTOLOGIES: StorePart<OntologyRepo> = {
  ...legacy,
  name: 'ontologies',
  tables: ['ontologies'],
  memory: () => new MemoryOntologies(),
  postgres: (db) => new PgOntologies(db),
};
export const ONTOLOGY_OBJECTS: StorePart<OntologyObjectRepo> = {
  ...legacy,
  name: 'ontology-objects',
  tables: ['ontology_objects', 'ontology_pairs'],
  memory: () => new MemoryOntologyObjects(),
  postgres: (db) => new PgOntologyObjects(db),
};
export const COMPUTE_MODULES: StorePart<ComputeModuleRepo> = {
  ...legacy,
  name: 'compute-modules',
  tables: ['runtimes', 'deployed_apps'],
  memory: () => new MemoryComputeModules(),
  postgres: (db) => new PgComputeModules(db),
};
export const COMPUTE_MODULE_JOBS: StorePart<ComputeModuleJobRepo> = {
  ...legacy,
  name: 'compute-module-jobs',
  tables: ['jobs'],
  memory: () => new MemoryComputeModuleJobs(),
  postgres: (db) => new PgComputeModuleJobs(db),
};

/** Every store needs these: the Store interface names their repositories. */
export const CORE_PARTS: readonly StorePart<unknown>[] = [
  USERS,
  CLIENTS,
  TOKENS,
  OAUTH,
  ENROLLMENT,
  CONNECTIONS,
  ONTOLOGIES,
  ONTOLOGY_OBJECTS,
  COMPUTE_MODULES,
  COMPUTE_MODULE_JOBS,
] as StorePart<unknown>[];

/** The core repositories a Store names, built by a backend's registry. */
export const coreRepositories = (registry: PartRegistry) => ({
  users: registry.get(USERS),
  clients: registry.get(CLIENTS),
  tokens: registry.get(TOKENS),
  oauth: registry.get(OAUTH),
  enrollment: registry.get(ENROLLMENT),
  connections: registry.get(CONNECTIONS),
  ontologies: registry.get(ONTOLOGIES),
  ontologyObjects: registry.get(ONTOLOGY_OBJECTS),
  computeModules: registry.get(COMPUTE_MODULES),
  computeModuleJobs: registry.get(COMPUTE_MODULE_JOBS),
});

/** The core parts first, then each further part once (by name), in the order given. */
export function withCoreParts(parts: readonly StorePart<unknown>[]): StorePart<unknown>[] {
  const all = [...CORE_PARTS];
  for (const part of parts) if (!all.some((p) => p.name === part.name)) all.push(part);
  return all;
}
