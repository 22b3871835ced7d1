// Compute-module runtimes and the deployed apps bound to them. Jobs are owned by the compute-modules service.

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
  /** False when this rid and branch are taken. */
  insertDeployedApp(app: DeployedAppRecord): Promise<boolean>;
  deployedApp(deployedAppRid: string, branch: string): Promise<DeployedAppRecord | undefined>;
  countRuntimes(): Promise<number>;
  countDeployedApps(): Promise<number>;
}
