// The module environment of deployed apps in the seed (docs/functions.md, "Module environment"): `client_id`
// (a seeded confidential client: the module's application permissions) and `sources` (api name -> a seeded
// connection). Written in the deployed app's own block (platform.compute_modules.deployed_apps[]); the codec's
// key `module_environments.apps` holds the same per app, the form the state export writes (deployed apps are
// exported by the compute-modules service), so that export then import keeps them. The same idea as `functions`.
import { Type, type Static } from '@sinclair/typebox';
import type { SeedCodec } from '../../../seed/codec.js';
import { ModuleClientIdSeed, ModuleSourceSeed } from '../../compute-modules/deployed-app-seed.js';
import { MODULE_ENVIRONMENTS, type ModuleEnvironment } from './part.js';

const AppSeed = Type.Object(
  {
    deployed_app_rid: Type.String({ minLength: 1 }),
    branch: Type.String({ default: 'master' }),
    client_id: Type.Optional(ModuleClientIdSeed),
    sources: Type.Array(ModuleSourceSeed, { default: [] }),
  },
  { additionalProperties: false },
);
const EnvironmentsPart = Type.Object({ apps: Type.Array(AppSeed, { default: [] }) }, { additionalProperties: false, default: {} });
type EnvironmentsPart = Static<typeof EnvironmentsPart>;
type AppSeed = Static<typeof AppSeed>;
type DeployedApp = { deployed_app_rid: string; branch: string; client_id?: string; sources?: AppSeed['sources'] };

const deployedAppsOf = (platform: Record<string, unknown>): DeployedApp[] =>
  (platform.compute_modules as { deployed_apps?: DeployedApp[] } | undefined)?.deployed_apps ?? [];

/** Every app's environment: the apps' own blocks, then the codec's list (which wins for the same app). */
function appsOf(part: EnvironmentsPart, platform: Record<string, unknown>): Array<{ app: AppSeed; at: string }> {
  const byKey = new Map<string, { app: AppSeed; at: string }>();
  for (const [i, a] of deployedAppsOf(platform).entries())
    if (a.client_id !== undefined || a.sources !== undefined)
      byKey.set(`${a.deployed_app_rid}\u0000${a.branch}`, {
        app: { deployed_app_rid: a.deployed_app_rid, branch: a.branch, ...(a.client_id ? { client_id: a.client_id } : {}), sources: a.sources ?? [] },
        at: `platform.compute_modules.deployed_apps[${i}]`,
      });
  for (const [i, a] of part.apps.entries()) byKey.set(`${a.deployed_app_rid}\u0000${a.branch}`, { app: a, at: `platform.module_environments.apps[${i}]` });
  return [...byKey.values()];
}

const toRecord = (a: AppSeed): ModuleEnvironment => ({
  deployedAppRid: a.deployed_app_rid,
  branch: a.branch,
  ...(a.client_id ? { clientId: a.client_id } : {}),
  sources: a.sources.map((s) => ({ apiName: s.api_name, connectionRid: s.connection })),
});

type ClientSeed = { client_id: string; client_secret?: string; grant_types?: string[] };

/** Problems of one app's environment: the client must be able to get a token, the connections must exist. */
function problemsOf(a: AppSeed, at: string, platform: Record<string, unknown>): string[] {
  const problems: string[] = [];
  if (a.client_id !== undefined) {
    const client = ((platform.oauth_clients as ClientSeed[] | undefined) ?? []).find((c) => c.client_id === a.client_id);
    if (!client) problems.push(`${at}.client_id: no seeded OAuth client has the id "${a.client_id}"`);
    else if (!client.client_secret)
      problems.push(`${at}.client_id: the OAuth client "${a.client_id}" has no client_secret (application permissions need a confidential client)`);
    else if (client.grant_types && !client.grant_types.includes('client_credentials'))
      problems.push(`${at}.client_id: the OAuth client "${a.client_id}" does not allow the client_credentials grant`);
  }
  const connections = new Set(((platform.connections as Array<{ rid?: string }> | undefined) ?? []).flatMap((c) => (c.rid ? [c.rid] : [])));
  const names = new Set<string>();
  for (const [j, s] of a.sources.entries()) {
    if (!connections.has(s.connection)) problems.push(`${at}.sources[${j}].connection: no seeded connection has the rid "${s.connection}"`);
    if (names.has(s.api_name)) problems.push(`${at}.sources[${j}].api_name: "${s.api_name}" is given twice`);
    names.add(s.api_name);
  }
  return problems;
}

export const moduleEnvironmentsCodec: SeedCodec<EnvironmentsPart> = {
  key: 'module_environments',
  schema: EnvironmentsPart,
  // Names the compute-modules example's app and the connectivity example's connection (the generated tests seed every example).
  example: {
    apps: [
      {
        deployed_app_rid: 'ri.foundry.main.deployed-app.adder',
        branch: 'master',
        sources: [{ api_name: 'weather', connection: 'ri.magritte..source.weather' }],
      },
    ],
  },
  check(part: never, path: string, platform: Record<string, unknown>) {
    const apps = new Set(deployedAppsOf(platform).map((a) => `${a.deployed_app_rid}\u0000${a.branch}`));
    const problems = (part as EnvironmentsPart).apps.flatMap((a, i) =>
      apps.has(`${a.deployed_app_rid}\u0000${a.branch}`)
        ? []
        : [`${path}.apps[${i}].deployed_app_rid: no seeded deployed app "${a.deployed_app_rid}" on branch "${a.branch}"`],
    );
    for (const { app, at } of appsOf(part as EnvironmentsPart, platform)) problems.push(...problemsOf(app, at, platform));
    return problems;
  },
  async apply(part, { store, seed }) {
    for (const { app } of appsOf(part, seed as unknown as Record<string, unknown>)) await store.part(MODULE_ENVIRONMENTS).put(toRecord(app));
  },
  async export({ store }) {
    const apps = (await store.part(MODULE_ENVIRONMENTS).list()).map((e) => ({
      deployed_app_rid: e.deployedAppRid,
      branch: e.branch,
      ...(e.clientId ? { client_id: e.clientId } : {}),
      sources: e.sources.map((s) => ({ api_name: s.apiName, connection: s.connectionRid })),
    }));
    return { apps };
  },
};
