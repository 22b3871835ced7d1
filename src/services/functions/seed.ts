// The seed codec of functions (docs/functions.md). The configuration is written where a reader expects it, in
// the deployed app's own `functions` block (platform.compute_modules.deployed_apps[].functions); the codec's own
// key `platform.functions.apps` holds the same configuration per app, which is the form the state export
// writes (the export of deployed apps is not this service's), so that export then import keeps it.
import { Type, type Static } from '@sinclair/typebox';
import type { SeedCodec } from '../../seed/codec.js';
import { FunctionsSeed } from '../compute-modules/deployed-app-seed.js';
import { FUNCTIONS_CONFIGS, type FunctionsConfig } from './store.js';

const AppFunctionsSeed = Type.Object(
  { deployed_app_rid: Type.String({ minLength: 1 }), branch: Type.String({ default: 'master' }), ...FunctionsSeed.properties },
  { additionalProperties: false },
);
const FunctionsPart = Type.Object({ apps: Type.Array(AppFunctionsSeed, { default: [] }) }, { additionalProperties: false, default: {} });
type FunctionsPart = Static<typeof FunctionsPart>;
type AppFunctionsSeed = Static<typeof AppFunctionsSeed>;
type DeployedAppSeed = { deployed_app_rid: string; branch: string; functions?: Static<typeof FunctionsSeed> };

const deployedAppsOf = (platform: Record<string, unknown>): DeployedAppSeed[] =>
  (platform.compute_modules as { deployed_apps?: DeployedAppSeed[] } | undefined)?.deployed_apps ?? [];

/** Every app's configuration: the apps' own blocks, then the codec's list (which wins for the same app). */
function configsOf(part: FunctionsPart, platform: Record<string, unknown>): AppFunctionsSeed[] {
  const nested = deployedAppsOf(platform).flatMap((a) => (a.functions ? [{ deployed_app_rid: a.deployed_app_rid, branch: a.branch, ...a.functions }] : []));
  const byKey = new Map<string, AppFunctionsSeed>();
  for (const c of [...nested, ...part.apps]) byKey.set(`${c.deployed_app_rid}\u0000${c.branch}`, c);
  return [...byKey.values()];
}

const toRecord = (c: AppFunctionsSeed): FunctionsConfig => ({
  deployedAppRid: c.deployed_app_rid,
  branch: c.branch,
  namespace: c.namespace,
  ...(c.ontologies ? { ontologies: c.ontologies } : {}),
  register: c.register,
  timeoutMs: c.timeout_ms,
});

export const functionsCodec: SeedCodec<FunctionsPart> = {
  key: 'functions',
  schema: FunctionsPart,
  // Names the compute-modules and ontologies examples' app and ontology (the generated tests seed every example).
  example: {
    apps: [
      {
        deployed_app_rid: 'ri.foundry.main.deployed-app.adder',
        branch: 'master',
        namespace: 'example',
        ontologies: ['example-ontology'],
        register: 'auto',
        timeout_ms: 60_000,
      },
    ],
  },
  check(part: never, path: string, platform: Record<string, unknown>) {
    const problems: string[] = [];
    const ontologies = new Set(((platform.ontologies as Array<{ api_name: string }> | undefined) ?? []).map((o) => o.api_name));
    const apps = new Set(deployedAppsOf(platform).map((a) => `${a.deployed_app_rid}\u0000${a.branch}`));
    const check = (c: Static<typeof FunctionsSeed>, at: string) => {
      for (const [i, o] of (c.ontologies ?? []).entries())
        if (!ontologies.has(o)) problems.push(`${at}.ontologies[${i}]: no seeded ontology has the api name "${o}"`);
    };
    for (const [i, a] of deployedAppsOf(platform).entries()) if (a.functions) check(a.functions, `platform.compute_modules.deployed_apps[${i}].functions`);
    for (const [i, c] of (part as FunctionsPart).apps.entries()) {
      check(c, `${path}.apps[${i}]`);
      if (!apps.has(`${c.deployed_app_rid}\u0000${c.branch}`))
        problems.push(`${path}.apps[${i}].deployed_app_rid: no seeded deployed app "${c.deployed_app_rid}" on branch "${c.branch}"`);
    }
    return problems;
  },
  async apply(part, { store, seed }) {
    for (const c of configsOf(part, seed as unknown as Record<string, unknown>)) await store.part(FUNCTIONS_CONFIGS).put(toRecord(c));
  },
  async export({ store }) {
    const apps = (await store.part(FUNCTIONS_CONFIGS).list()).map((c) => ({
      deployed_app_rid: c.deployedAppRid,
      branch: c.branch,
      namespace: c.namespace,
      ...(c.ontologies ? { ontologies: c.ontologies } : {}),
      register: c.register,
      timeout_ms: c.timeoutMs,
    }));
    return { apps };
  },
};
