// The async Store interface: one repository per aggregate, methods named for intent. The memory store is
// the reference behaviour; another backend (PostgreSQL) fits behind the same interface without touching callers.
import type { UserRepo } from './users.js';
import type { StoreNotifications } from './notifications.js';
import type { ClientRepo } from './clients.js';
import type { TokenRepo } from './tokens.js';
import type { OAuthRepo } from './oauth.js';
import type { EnrollmentRepo } from './enrollment.js';
import type { ConnectionRepo } from './connections.js';
import type { OntologyRepo } from './ontologies.js';
import type { OntologyObjectRepo } from './ontology-objects.js';
import type { ComputeModuleRepo } from './compute-modules.js';
import type { ComputeModuleJobRepo } from './compute-module-jobs.js';
import type { StorePart } from './parts.js';
import type { InstanceRepo } from './instances.js';

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
  /** The repository of a service's own store part (src/store/parts.ts), built once per store. */
  part<Repo>(part: StorePart<Repo>): Repo;
  /** The parts this store was opened with, core ones included: what a reset empties. */
  readonly parts: readonly StorePart<unknown>[];
  /** Forgets everything; the caller applies the seed again. */
  clear(): Promise<void>;
  /**
   * Forgets everything and runs `apply` (the seed) as one step: on a store shared by several instances
   * (PostgreSQL) one transaction, so that no reader ever sees the store empty or half-seeded. If `apply`
   * throws, nothing changes there.
   */
  resetWith<T>(apply: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** Whether several emulator processes may share this store (PostgreSQL): then they coordinate through it. */
  readonly shared: boolean;
  /**
   * Hints that something changed on another instance sharing the store (none arrive on the memory store). A hint
   * only: the store stays the truth, and a lost hint may delay, never lose, a wake-up.
   */
  notifications: StoreNotifications;
  /** The instances sharing the store and their leases (instance-lease.ts); the memory store keeps none. */
  instances: InstanceRepo;
  /**
   * Runs `apply` (the seed) only if this store has never been seeded, once across every instance starting
   * together; answers whether it ran. A fresh memory store always runs it.
   */
  seedOnce(apply: () => Promise<void>): Promise<boolean>;
}

export type { StoreNotifications } from './notifications.js';
export type { InstanceRepo } from './instances.js';
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
