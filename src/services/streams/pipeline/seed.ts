// The pipeline resources of deployed apps (docs/streams.md, "Pipeline mode"). Written where a reader expects
// them, in the deployed app's own block (platform.compute_modules.deployed_apps[].resources); the codec's key
// `pipelines.apps` holds the same per app, the form the state export writes (deployed apps are exported by
// the compute-modules service), so that export then import keeps them. The same idea as `functions`.
import { Type, type Static } from '@sinclair/typebox';
import type { SeedCodec } from '../../../seed/codec.js';
import { PIPELINES, type PipelineApp } from './part.js';

// `branch` is optional (default master) rather than defaulted: defaults do not reach into a record's values.
const ResourceSeed = Type.Object({ rid: Type.String({ minLength: 1 }), branch: Type.Optional(Type.String({ minLength: 1 })) }, { additionalProperties: false });
/** alias -> resource, as a deployed app declares them. */
export const ResourcesSeed = Type.Record(Type.String({ minLength: 1 }), ResourceSeed);
const AppSeed = Type.Object(
  { deployed_app_rid: Type.String({ minLength: 1 }), branch: Type.String({ default: 'master' }), resources: ResourcesSeed },
  { additionalProperties: false },
);
const PipelinesPart = Type.Object({ apps: Type.Array(AppSeed, { default: [] }) }, { additionalProperties: false, default: {} });
type PipelinesPart = Static<typeof PipelinesPart>;
type AppSeed = Static<typeof AppSeed>;
type DeployedApp = { deployed_app_rid: string; branch: string; resources?: AppSeed['resources'] };

const deployedAppsOf = (platform: Record<string, unknown>): DeployedApp[] =>
  (platform.compute_modules as { deployed_apps?: DeployedApp[] } | undefined)?.deployed_apps ?? [];

function appsOf(part: PipelinesPart, platform: Record<string, unknown>): AppSeed[] {
  const nested = deployedAppsOf(platform).flatMap((a) =>
    a.resources ? [{ deployed_app_rid: a.deployed_app_rid, branch: a.branch, resources: a.resources }] : [],
  );
  const byKey = new Map<string, AppSeed>();
  for (const a of [...nested, ...part.apps]) byKey.set(`${a.deployed_app_rid}\u0000${a.branch}`, a);
  return [...byKey.values()];
}

const toRecord = (a: AppSeed): PipelineApp => ({
  deployedAppRid: a.deployed_app_rid,
  branch: a.branch,
  resources: Object.fromEntries(Object.entries(a.resources).map(([alias, r]) => [alias, { rid: r.rid, branch: r.branch ?? 'master' }])),
});

export const pipelinesCodec: SeedCodec<PipelinesPart> = {
  key: 'pipelines',
  schema: PipelinesPart,
  // Names the compute-modules example's app and the streams example's stream (the generated tests seed every example).
  example: {
    apps: [
      {
        deployed_app_rid: 'ri.foundry.main.deployed-app.adder',
        branch: 'master',
        resources: { events: { rid: 'ri.foundry.main.dataset.example-events', branch: 'master' } },
      },
    ],
  },
  check(part: never, path: string, platform: Record<string, unknown>) {
    const apps = new Set(deployedAppsOf(platform).map((a) => `${a.deployed_app_rid}\u0000${a.branch}`));
    return (part as PipelinesPart).apps.flatMap((a, i) =>
      apps.has(`${a.deployed_app_rid}\u0000${a.branch}`)
        ? []
        : [`${path}.apps[${i}].deployed_app_rid: no seeded deployed app "${a.deployed_app_rid}" on branch "${a.branch}"`],
    );
  },
  async apply(part, { store, seed }) {
    for (const a of appsOf(part, seed as unknown as Record<string, unknown>)) await store.part(PIPELINES).put(toRecord(a));
  },
  async export({ store }) {
    return { apps: (await store.part(PIPELINES).list()).map((a) => ({ deployed_app_rid: a.deployedAppRid, branch: a.branch, resources: a.resources })) };
  },
};
