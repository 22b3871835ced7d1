import type { ComputeModuleRepo, DeployedAppRecord, RuntimeRecord } from '../compute-modules.js';

const appKey = (rid: string, branch: string) => `${rid}\u0000${branch}`;

export class MemoryComputeModules implements ComputeModuleRepo {
  private runtimes = new Map<string, RuntimeRecord>();
  private schemaLists = new Map<string, unknown[]>();
  private apps = new Map<string, DeployedAppRecord>();
  private polls = new Map<string, number>();

  /** Recorded for a known runtime only, as PostgreSQL records it on the runtime's row. */
  async notePoll(runtimeId: string, at: number): Promise<void> {
    if (this.runtimes.has(runtimeId) && at > (this.polls.get(runtimeId) ?? -Infinity)) this.polls.set(runtimeId, at);
  }

  async lastPoll(runtimeId: string): Promise<number | undefined> {
    return this.polls.get(runtimeId);
  }

  async insertRuntime(runtime: RuntimeRecord): Promise<boolean> {
    if (this.runtimes.has(runtime.runtimeId)) return false;
    this.runtimes.set(runtime.runtimeId, { ...runtime });
    return true;
  }

  async runtime(runtimeId: string): Promise<RuntimeRecord | undefined> {
    const runtime = this.runtimes.get(runtimeId);
    return runtime && { ...runtime };
  }

  async openSession(runtime: RuntimeRecord): Promise<boolean> {
    const created = !this.runtimes.has(runtime.runtimeId);
    this.runtimes.set(runtime.runtimeId, { ...runtime });
    this.schemaLists.delete(runtime.runtimeId);
    return created;
  }

  async setSchemas(runtimeId: string, schemas: unknown[]): Promise<boolean> {
    if (!this.runtimes.has(runtimeId)) return false;
    this.schemaLists.set(runtimeId, schemas);
    return true;
  }

  async schemas(runtimeId: string): Promise<unknown[]> {
    return this.schemaLists.get(runtimeId) ?? [];
  }

  async insertDeployedApp(app: DeployedAppRecord): Promise<boolean> {
    const key = appKey(app.deployedAppRid, app.branch);
    if (this.apps.has(key)) return false;
    this.apps.set(key, { ...app });
    return true;
  }

  async upsertDeployedApp(app: DeployedAppRecord): Promise<void> {
    this.apps.set(appKey(app.deployedAppRid, app.branch), { ...app });
  }

  async deployedApp(deployedAppRid: string, branch: string): Promise<DeployedAppRecord | undefined> {
    const app = this.apps.get(appKey(deployedAppRid, branch));
    return app && { ...app };
  }

  async deployedAppsOf(runtimeId: string): Promise<DeployedAppRecord[]> {
    return [...this.apps.values()].filter((a) => a.runtimeId === runtimeId).map((a) => ({ ...a }));
  }

  async listRuntimes(): Promise<RuntimeRecord[]> {
    return [...this.runtimes.values()].map((r) => ({ ...r }));
  }

  async countRuntimes(): Promise<number> {
    return this.runtimes.size;
  }

  async countDeployedApps(): Promise<number> {
    return this.apps.size;
  }

  clear(): void {
    this.polls.clear();
    this.runtimes.clear();
    this.schemaLists.clear();
    this.apps.clear();
  }
}
