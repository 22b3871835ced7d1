import type { ComputeModuleRepo, DeployedAppRecord, RuntimeRecord } from '../compute-modules.js';
import type { Db } from './db.js';
import { decode, encode } from './records.js';

type RuntimeRow = { runtime_id: string; module_auth_token: string };
const runtime = (row: RuntimeRow | undefined): RuntimeRecord | undefined => row && { runtimeId: row.runtime_id, moduleAuthToken: row.module_auth_token };

export class PgComputeModules implements ComputeModuleRepo {
  constructor(private readonly db: Db) {}

  async insertRuntime(r: RuntimeRecord): Promise<boolean> {
    const res = await this.db.query('INSERT INTO runtimes (runtime_id, module_auth_token) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
      r.runtimeId,
      r.moduleAuthToken,
    ]);
    return res.rowCount === 1;
  }

  async runtime(runtimeId: string): Promise<RuntimeRecord | undefined> {
    return runtime(await this.db.first<RuntimeRow>('SELECT runtime_id, module_auth_token FROM runtimes WHERE runtime_id = $1', [runtimeId]));
  }

  async openSession(r: RuntimeRecord): Promise<boolean> {
    // xmax = 0 only on a row this statement inserted (an update sets it): created or reset, in one step.
    const row = await this.db.first<{ created: boolean }>(
      `INSERT INTO runtimes (runtime_id, module_auth_token) VALUES ($1, $2)
       ON CONFLICT (runtime_id) DO UPDATE SET module_auth_token = EXCLUDED.module_auth_token, schemas = '[]'
       RETURNING (xmax = 0) AS created`,
      [r.runtimeId, r.moduleAuthToken],
    );
    return row!.created;
  }

  async setSchemas(runtimeId: string, schemas: unknown[]): Promise<boolean> {
    return (await this.db.query('UPDATE runtimes SET schemas = $2 WHERE runtime_id = $1', [runtimeId, encode(schemas)])).rowCount === 1;
  }

  async schemas(runtimeId: string): Promise<unknown[]> {
    const row = await this.db.first<{ schemas: string }>('SELECT schemas FROM runtimes WHERE runtime_id = $1', [runtimeId]);
    return row ? decode(row.schemas) : [];
  }

  async insertDeployedApp(app: DeployedAppRecord): Promise<boolean> {
    const res = await this.db.query('INSERT INTO deployed_apps (deployed_app_rid, branch, runtime_id, record) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [
      app.deployedAppRid,
      app.branch,
      app.runtimeId,
      encode(app),
    ]);
    return res.rowCount === 1;
  }

  async upsertDeployedApp(app: DeployedAppRecord): Promise<void> {
    await this.db.query(
      `INSERT INTO deployed_apps (deployed_app_rid, branch, runtime_id, record) VALUES ($1, $2, $3, $4)
       ON CONFLICT (deployed_app_rid, branch) DO UPDATE SET runtime_id = EXCLUDED.runtime_id, record = EXCLUDED.record`,
      [app.deployedAppRid, app.branch, app.runtimeId, encode(app)],
    );
  }

  async deployedApp(deployedAppRid: string, branch: string): Promise<DeployedAppRecord | undefined> {
    const row = await this.db.first<{ record: string }>('SELECT record FROM deployed_apps WHERE deployed_app_rid = $1 AND branch = $2', [
      deployedAppRid,
      branch,
    ]);
    return row && decode(row.record);
  }

  async deployedAppsOf(runtimeId: string): Promise<DeployedAppRecord[]> {
    return (await this.db.rows<{ record: string }>('SELECT record FROM deployed_apps WHERE runtime_id = $1', [runtimeId])).map((r) =>
      decode<DeployedAppRecord>(r.record),
    );
  }

  /** Every runtime in creation order (records carry the module auth token: never shown). */
  async listRuntimes(): Promise<RuntimeRecord[]> {
    return (await this.db.rows<RuntimeRow>('SELECT runtime_id, module_auth_token FROM runtimes ORDER BY seq')).map((r) => runtime(r)!);
  }

  async notePoll(runtimeId: string, at: number): Promise<void> {
    await this.db.query('UPDATE runtimes SET last_poll_at = GREATEST(last_poll_at, $2) WHERE runtime_id = $1', [runtimeId, at]);
  }

  async lastPoll(runtimeId: string): Promise<number | undefined> {
    return (await this.db.first<{ at: number | null }>('SELECT last_poll_at AS at FROM runtimes WHERE runtime_id = $1', [runtimeId]))?.at ?? undefined;
  }

  async countRuntimes(): Promise<number> {
    return (await this.db.first<{ n: number }>('SELECT count(*)::int AS n FROM runtimes'))!.n;
  }

  async countDeployedApps(): Promise<number> {
    return (await this.db.first<{ n: number }>('SELECT count(*)::int AS n FROM deployed_apps'))!.n;
  }
}
