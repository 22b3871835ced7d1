// The resources each deployed app declares for pipeline mode (docs/streams.md, "Pipeline mode"): alias -> rid
// and branch, per app and branch. Both backends.
import type { StorePart } from '../../../store/parts.js';

export interface ResourceRef {
  rid: string;
  branch: string;
}

export interface PipelineApp {
  deployedAppRid: string;
  branch: string;
  resources: Record<string, ResourceRef>;
}

export interface PipelinesRepo {
  put(app: PipelineApp): Promise<void>;
  get(deployedAppRid: string, branch: string): Promise<PipelineApp | undefined>;
  list(): Promise<PipelineApp[]>;
}

const key = (rid: string, branch: string) => `${rid}\u0000${branch}`;

class MemoryPipelines implements PipelinesRepo {
  private readonly apps = new Map<string, PipelineApp>();
  async put(app: PipelineApp) {
    this.apps.set(key(app.deployedAppRid, app.branch), structuredClone(app));
  }
  async get(rid: string, branch: string) {
    const app = this.apps.get(key(rid, branch));
    return app && structuredClone(app);
  }
  async list() {
    return [...this.apps.values()].map((a) => structuredClone(a));
  }
  clear() {
    this.apps.clear();
  }
}

interface Row {
  deployed_app_rid: string;
  branch: string;
  resources: string;
}
const appOf = (r: Row): PipelineApp => ({
  deployedAppRid: r.deployed_app_rid,
  branch: r.branch,
  resources: JSON.parse(r.resources) as PipelineApp['resources'],
});

export const PIPELINES: StorePart<PipelinesRepo> = {
  name: 'pipelines',
  tables: ['pipeline_resources'],
  migrations: [
    {
      version: 1,
      name: 'pipeline resources',
      sql: 'CREATE TABLE pipeline_resources (deployed_app_rid text NOT NULL, branch text NOT NULL, seq bigserial NOT NULL, resources text NOT NULL, PRIMARY KEY (deployed_app_rid, branch))',
    },
  ],
  memory: () => new MemoryPipelines(),
  postgres: (db) => ({
    put: async (app) =>
      void (await db.query(
        'INSERT INTO pipeline_resources (deployed_app_rid, branch, resources) VALUES ($1, $2, $3) ON CONFLICT (deployed_app_rid, branch) DO UPDATE SET resources = $3',
        [app.deployedAppRid, app.branch, JSON.stringify(app.resources)],
      )),
    get: async (rid, branch) => {
      const row = await db.first<Row>('SELECT deployed_app_rid, branch, resources FROM pipeline_resources WHERE deployed_app_rid = $1 AND branch = $2', [
        rid,
        branch,
      ]);
      return row && appOf(row);
    },
    list: async () => (await db.rows<Row>('SELECT deployed_app_rid, branch, resources FROM pipeline_resources ORDER BY seq')).map(appOf),
  }),
};
