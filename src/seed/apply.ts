// Writes a validated Seed into any Store. First definition wins: later duplicates are skipped with a
// warning naming their path. The default admin is created unless the seed lists a user `admin`.
import type { Store, UserRecord } from '../store/store.js';
import type { Clock } from '../clock.js';
import { DEFAULT_ORGANIZATION_RID, DEFAULT_REALM, type Seed, type UserSeed } from './schema.js';
import { randomSecret, stableUuid } from '../ids.js';
import { scopeWarnings } from './scope-warnings.js';
import type { AnySeedCodec } from './codec.js';
import { compiledOntology, ontologyRid } from './ontology-apply.js';

export interface SeedSummary {
  users: number;
  oauthClients: number;
  connections: number;
  ontologies: number;
  runtimes: number;
  deployedApps: number;
  defaultAdmin: boolean;
  /** The services' own seed keys and how many records each holds (SeedCodec.count), in list order. */
  services: Array<{ key: string; count: number }>;
  warnings: string[];
}

const DEFAULT_ADMIN: UserSeed = {
  username: 'admin',
  display_name: 'Admin',
  given_name: 'Admin',
  email: 'admin@localhost',
  realm: DEFAULT_REALM,
  organization_rid: DEFAULT_ORGANIZATION_RID,
  principal_type: 'human',
  active: true,
  attributes: {},
};

export function userFromSeed(u: UserSeed): UserRecord {
  return {
    id: stableUuid(`user:${u.username}`),
    username: u.username,
    displayName: u.display_name ?? u.username,
    email: u.email,
    givenName: u.given_name,
    familyName: u.family_name,
    realm: u.realm,
    organizationRid: u.organization_rid,
    principalType: u.principal_type,
    active: u.active,
    oauthClientId: u.oauth_client_id,
    attributes: u.attributes,
  };
}

/** `codecs`: the services' own seed keys (src/services/index.ts), applied after the built-in ones in list order. */
export async function applySeed(seed: Seed, store: Store, clock: Clock, codecs: readonly AnySeedCodec[] = []): Promise<SeedSummary> {
  const warnings: string[] = scopeWarnings(seed);
  const skipped = (path: string, what: string) => warnings.push(`${path}: duplicate ${what} skipped (the first definition wins)`);

  const defaultAdmin = !seed.users.some((u) => u.username === DEFAULT_ADMIN.username);
  if (defaultAdmin) await store.users.insert(userFromSeed(DEFAULT_ADMIN));
  for (const [i, u] of seed.users.entries()) {
    if (!(await store.users.insert(userFromSeed(u)))) skipped(`platform.users[${i}]`, `username "${u.username}"`);
  }

  for (const [i, c] of seed.oauth_clients.entries()) {
    const inserted = await store.clients.insert({
      clientId: c.client_id,
      clientSecret: c.client_secret ? c.client_secret : undefined,
      name: c.name ?? c.client_id,
      redirectUris: c.redirect_uris,
      grantTypes: c.grant_types,
      allowedScopes: c.allowed_scopes,
    });
    if (!inserted) skipped(`platform.oauth_clients[${i}]`, `client_id "${c.client_id}"`);
  }

  await store.enrollment.set({ ...seed.enrollment, createdTime: new Date(clock.now()).toISOString() });

  for (const [i, c] of seed.connections.entries()) {
    const rid = c.rid ?? `ri.magritte..source.${stableUuid(`connection:${i}:${c.display_name}`)}`;
    const inserted = await store.connections.insert({
      rid,
      displayName: c.display_name,
      parentFolderRid: c.parent_folder_rid,
      worker: { type: 'foundryWorker', networkEgressPolicyRids: [] },
      domains: c.domains.map((d) => ({ host: d.host, port: d.port, scheme: d.scheme })),
      secrets: {},
    });
    if (!inserted) skipped(`platform.connections[${i}]`, `rid "${rid}"`);
  }

  for (const [i, o] of seed.ontologies.entries()) {
    const queries = new Map<string, Buffer>();
    for (const [j, q] of o.queries.entries()) {
      if (queries.has(q.api_name)) skipped(`platform.ontologies[${i}].queries[${j}]`, `api_name "${q.api_name}"`);
      else queries.set(q.api_name, Buffer.from(JSON.stringify(q.result) ?? '')); // serialized once: execute sends these bytes
    }
    const model = compiledOntology(o, i);
    const rid = ontologyRid(o);
    const inserted = await store.ontologies.insert({
      rid,
      apiName: o.api_name,
      displayName: o.display_name,
      description: o.description ?? '',
      queries,
      queryTypes: model.queryTypes,
      objectTypes: model.objectTypes,
      actionTypes: model.actionTypes,
    });
    if (!inserted) skipped(`platform.ontologies[${i}]`, `api_name or rid of "${o.api_name}"`);
    else {
      await store.ontologyObjects.insertObjects(rid, model.objects);
      for (const [linkId, pairs] of model.pairs) await store.ontologyObjects.insertPairs(rid, linkId, pairs);
    }
  }

  const cm = seed.compute_modules;
  for (const [i, r] of cm.runtimes.entries()) {
    const inserted = await store.computeModules.insertRuntime({
      runtimeId: r.runtime_id,
      moduleAuthToken: r.module_auth_token ?? randomSecret(),
    });
    if (!inserted) skipped(`platform.compute_modules.runtimes[${i}]`, `runtime_id "${r.runtime_id}"`);
  }
  for (const [i, a] of cm.deployed_apps.entries()) {
    // A deployed app may name a runtime that is not listed: it is created with a generated token.
    if (!(await store.computeModules.runtime(a.runtime_id))) {
      await store.computeModules.insertRuntime({ runtimeId: a.runtime_id, moduleAuthToken: randomSecret() });
    }
    const inserted = await store.computeModules.insertDeployedApp({
      deployedAppRid: a.deployed_app_rid,
      runtimeId: a.runtime_id,
      branch: a.branch,
      displayName: a.display_name,
      active: a.active,
    });
    if (!inserted) skipped(`platform.compute_modules.deployed_apps[${i}]`, `deployed app "${a.deployed_app_rid}" on branch "${a.branch}"`);
  }

  const context = { store, clock, seed, warn: (message: string) => void warnings.push(message) };
  for (const codec of codecs) await codec.apply(seed[codec.key] as never, context);

  if (seed.oauth_clients.length === 0) {
    warnings.push('no oauth_clients seeded: open mode, any client_id is accepted as a public client');
  }

  return summarize(store, defaultAdmin, warnings, codecs);
}

/** What a store holds, as a start-up line reports it; for a shared store that kept its state, without seeding. */
export async function summarizeStore(seed: Seed, store: Store, codecs: readonly AnySeedCodec[] = []): Promise<SeedSummary> {
  return summarize(store, !seed.users.some((u) => u.username === DEFAULT_ADMIN.username), [], codecs);
}

async function summarize(store: Store, defaultAdmin: boolean, warnings: string[], codecs: readonly AnySeedCodec[]): Promise<SeedSummary> {
  const services = [];
  for (const codec of codecs) if (codec.count) services.push({ key: codec.key, count: await codec.count(store) });
  return {
    users: await store.users.count(),
    oauthClients: await store.clients.count(),
    connections: await store.connections.count(),
    ontologies: await store.ontologies.count(),
    runtimes: await store.computeModules.countRuntimes(),
    deployedApps: await store.computeModules.countDeployedApps(),
    defaultAdmin,
    services,
    warnings,
  };
}
