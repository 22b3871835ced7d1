import type { ComputeModuleRepo, DeployedAppRecord, RuntimeRecord } from '../compute-modules.js';

const appKey = (rid: string, branch: string) => `${rid}\u0000${branch}`;

export class MemoryComputeModules implements ComputeModuleRepo {
  private runtimes = new Map<string, RuntimeRecord>();
  private apps = new Map<string, DeployedAppRecord>();

  async insertRuntime(runtime: RuntimeRecord): Promise<boolean> {
    if (this.runtimes.has(runtime.runtimeId)) return false;
    this.runtimes.set(runtime.runtimeId, runtime);
    return true;
  }

  async runtime(runtimeId: string): Promise<RuntimeRecord | undefined> {
    return this.runtimes.get(runtimeId);
  }

  async insertDeployedApp(app: DeployedAppRecord): Promise<boolean> {
    const key = appKey(app.deployedAppRid, app.branch);
    if (this.apps.has(key)) return false;
    this.apps.set(key, app);
    return true;
  }

  async deployedApp(deployedAppRid: string, branch: string): Promise<DeployedAppRecord | undefined> {
    return this.apps.get(appKey(deployedAppRid, branch));
  }

  async countRuntimes(): Promise<number> {
    return this.runtimes.size;
  }

  async countDeployedApps(): Promise<number> {
    return this.apps.size;
  }

  clear(): void {
    this.runtimes.clear();
    this.apps.clear();
  }
}
