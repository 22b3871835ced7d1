// The async Store interface: one repository per aggregate, methods named for intent. The memory store is
// the reference behaviour; another backend (PostgreSQL) fits behind the same interface without touching callers.
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

export interface Store {
  users: UserRepo;
  clients: ClientRepo;
  tokens: TokenRepo;
  oauth: OAuthRepo;
  enrollment: EnrollmentRepo;
  connections: ConnectionRepo;
  ontologies: OntologyRepo;
  ontologyObjects: OntologyObjectRepo;
  computeModules: ComputeModuleRepo;
  computeModuleJobs: ComputeModuleJobRepo;
  /** Forgets everything; the caller applies the seed again. */
  clear(): Promise<void>;
  close(): Promise<void>;
}

export type { UserRecord, UserRepo, PrincipalType } from './users.js';
export type { ClientRecord, ClientRepo, GrantType } from './clients.js';
export type { AccessTokenRecord, TokenRepo } from './tokens.js';
export type { AuthorizationParameters, AuthorizeRequestRecord, AuthorizationCodeRecord, PkceChallenge, RefreshTokenRecord, OAuthRepo } from './oauth.js';
export type { EnrollmentRecord, EnrollmentRepo } from './enrollment.js';
export type { ConnectionRecord, ConnectionRepo, DomainRecord, DomainAuthRecord, ApiKeyLocationRecord, WorkerRecord } from './connections.js';
export type { OntologyRecord, OntologyRepo } from './ontologies.js';
export type { OntologyObjectRecord, OntologyObjectRepo, StoredEdit, EditOutcome, PropertyValues } from './ontology-objects.js';
export type { RuntimeRecord, DeployedAppRecord, ComputeModuleRepo } from './compute-modules.js';
export type { JobRecord, JobResult, JobState, ComputeModuleJobRepo, RequeueOutcome } from './compute-module-jobs.js';
