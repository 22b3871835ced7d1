// Compute-module runtimes, their sessions' function schemas, and the deployed apps bound to them.
// Jobs live in their own repository (compute-module-jobs.ts).

export interface RuntimeRecord {
  runtimeId: string;
  moduleAuthToken: string;
}

export interface DeployedAppRecord {
  deployedAppRid: string;
  runtimeId: string;
  branch: string;
  displayName?: string;
  active: boolean;
}

export interface ComputeModuleRepo {
  /** False when the runtime id is taken. */
  insertRuntime(runtime: RuntimeRecord): Promise<boolean>;
  runtime(runtimeId: string): Promise<RuntimeRecord | undefined>;
  /** Creates the runtime, or starts a new session on it: the given token, no schemas. True when created. */
  openSession(runtime: RuntimeRecord): Promise<boolean>;
  /** Replaces the function schemas the runtime's module posted; false for an unknown runtime. */
  setSchemas(runtimeId: string, schemas: unknown[]): Promise<boolean>;
  schemas(runtimeId: string): Promise<unknown[]>;
  /** False when this rid and branch are taken. */
  insertDeployedApp(app: DeployedAppRecord): Promise<boolean>;
  /** Inserts or rebinds the app with this rid and branch. */
  upsertDeployedApp(app: DeployedAppRecord): Promise<void>;
  deployedApp(deployedAppRid: string, branch: string): Promise<DeployedAppRecord | undefined>;
  deployedAppsOf(runtimeId: string): Promise<DeployedAppRecord[]>;
  countRuntimes(): Promise<number>;
  /** Every runtime in creation order, for the dashboard (records carry the module auth token: never shown). */
  listRuntimes(): Promise<RuntimeRecord[]>;
  countDeployedApps(): Promise<number>;
  /**
   * Records that the runtime's module polled at `at` (clock ms; the latest wins), and reads the latest, so that
   * every instance sharing the store judges module liveness by every poll (used where `Store.shared`).
   */
  notePoll(runtimeId: string, at: number): Promise<void>;
  lastPoll(runtimeId: string): Promise<number | undefined>;
}
