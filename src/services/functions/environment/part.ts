// What a deployed app's module is given beyond its runtime (docs/functions.md, "Module environment"): the OAuth
// client whose id and secret are its application permissions, and the sources (seeded connections) it may use.
// Per app and branch; both backends. Only references are stored: the secrets stay with the client and the
// connection, read when run-module asks for them.
import type { StorePart } from '../../../store/parts.js';

export interface ModuleSource {
  /** The name the module's code uses. */
  apiName: string;
  connectionRid: string;
}

export interface ModuleEnvironment {
  deployedAppRid: string;
  branch: string;
  clientId?: string;
  sources: ModuleSource[];
}

export interface ModuleEnvironmentRepo {
  put(env: ModuleEnvironment): Promise<void>;
  get(deployedAppRid: string, branch: string): Promise<ModuleEnvironment | undefined>;
  list(): Promise<ModuleEnvironment[]>;
}

const key = (rid: string, branch: string) => `${rid}\u0000${branch}`;

class MemoryModuleEnvironments implements ModuleEnvironmentRepo {
  private readonly envs = new Map<string, ModuleEnvironment>();
  async put(env: ModuleEnvironment) {
    this.envs.set(key(env.deployedAppRid, env.branch), structuredClone(env));
  }
  async get(rid: string, branch: string) {
    const env = this.envs.get(key(rid, branch));
    return env && structuredClone(env);
  }
  async list() {
    return [...this.envs.values()].map((e) => structuredClone(e));
  }
  clear() {
    this.envs.clear();
  }
}

interface Row {
  record: string;
}

export const MODULE_ENVIRONMENTS: StorePart<ModuleEnvironmentRepo> = {
  name: 'module-environments',
  tables: ['module_environments'],
  migrations: [
    {
      version: 1,
      name: 'module environments',
      sql: `CREATE TABLE module_environments (
              deployed_app_rid text NOT NULL, branch text NOT NULL, seq bigserial NOT NULL, record text NOT NULL,
              PRIMARY KEY (deployed_app_rid, branch))`,
    },
  ],
  memory: () => new MemoryModuleEnvironments(),
  postgres: (db) => ({
    put: async (env) =>
      void (await db.query(
        `INSERT INTO module_environments (deployed_app_rid, branch, record) VALUES ($1, $2, $3)
         ON CONFLICT (deployed_app_rid, branch) DO UPDATE SET record = EXCLUDED.record`,
        [env.deployedAppRid, env.branch, JSON.stringify(env)],
      )),
    get: async (rid, branch) => {
      const row = await db.first<Row>('SELECT record FROM module_environments WHERE deployed_app_rid = $1 AND branch = $2', [rid, branch]);
      return row && (JSON.parse(row.record) as ModuleEnvironment);
    },
    list: async () => (await db.rows<Row>('SELECT record FROM module_environments ORDER BY seq')).map((r) => JSON.parse(r.record) as ModuleEnvironment),
  }),
};
