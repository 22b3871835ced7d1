// The functions configuration of each deployed app (docs/functions.md): seeded, emptied on reset. Small (one row
// per app), read whole. The schemas a module posts live with its runtime (src/store/compute-modules.ts).
import type { StorePart } from '../../store/parts.js';
import { decode, encode } from '../../store/postgres/records.js';

export interface FunctionsConfig {
  deployedAppRid: string;
  branch: string;
  namespace: string;
  /** Ontology api names that list the functions; undefined: every ontology. */
  ontologies?: string[];
  /** `auto`, or only these function names. */
  register: 'auto' | string[];
  timeoutMs: number;
}

export interface FunctionsConfigRepo {
  /** Inserts or replaces the app's configuration. */
  put(config: FunctionsConfig): Promise<void>;
  /** Every configuration, in the order first put. */
  list(): Promise<FunctionsConfig[]>;
}

class MemoryFunctionsConfigs implements FunctionsConfigRepo {
  private readonly configs = new Map<string, FunctionsConfig>();
  // Frozen copies, handed out as they are: every function call lists them (docs/functions.md, "Bench").
  async put(config: FunctionsConfig) {
    const copy = structuredClone(config);
    if (Array.isArray(copy.ontologies)) Object.freeze(copy.ontologies);
    if (Array.isArray(copy.register)) Object.freeze(copy.register);
    this.configs.set(`${config.deployedAppRid}\u0000${config.branch}`, Object.freeze(copy));
  }
  async list() {
    return [...this.configs.values()];
  }
  clear() {
    this.configs.clear();
  }
}

export const FUNCTIONS_CONFIGS: StorePart<FunctionsConfigRepo> = {
  name: 'functions-configs',
  tables: ['functions_configs'],
  migrations: [
    {
      version: 1,
      name: 'functions configs',
      sql: `CREATE TABLE functions_configs (
              deployed_app_rid text NOT NULL, branch text NOT NULL, seq bigserial, record text NOT NULL,
              PRIMARY KEY (deployed_app_rid, branch))`,
    },
  ],
  memory: () => new MemoryFunctionsConfigs(),
  postgres: (db) => ({
    put: async (c) =>
      void (await db.query(
        `INSERT INTO functions_configs (deployed_app_rid, branch, record) VALUES ($1, $2, $3)
         ON CONFLICT (deployed_app_rid, branch) DO UPDATE SET record = EXCLUDED.record`,
        [c.deployedAppRid, c.branch, encode(c)],
      )),
    list: async () => (await db.rows<{ record: string }>('SELECT record FROM functions_configs ORDER BY seq')).map((r) => decode<FunctionsConfig>(r.record)),
  }),
};
