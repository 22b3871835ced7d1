// The current state as a seed document (CONTRACTS §7): what `--config` (or `--import`) accepts, so that a
// state arranged by a test suite or by hand can be saved and started again. Entities only, no settings (port,
// host, tokens of the service itself), so an export never moves a second instance's port.
// Left out on purpose: issued tokens, codes and jobs (they belong to a run), connection secret values and
// domain auth (no secret value leaves the service, CONTRACTS §4). Client secrets and module auth tokens are
// configuration the user wrote and are kept, so that clients and runtimes work the same after a restart.
import { stringify } from 'yaml';
import type { AnySeedCodec } from '../../seed/codec.js';
import type { Store } from '../../store/store.js';
import { clientSeedOf, connectionSeedOf, deployedAppSeedOf, runtimeSeedOf, userSeedOf } from './state-shapes.js';
import { ontologySeedOf } from './ontology-state.js';

export interface StateDocument {
  platform: Record<string, unknown>;
}

/**
 * `dropped` receives what a seed cannot hold and the export therefore leaves out (a foreign key or a pair
 * naming an object an action deleted), one line each, for the caller to log.
 */
export async function exportState(store: Store, dropped: string[] = [], codecs: readonly AnySeedCodec[] = []): Promise<StateDocument> {
  const ontologies = [];
  for (const o of await store.ontologies.list()) ontologies.push(await ontologySeedOf(store, o, dropped));
  const runtimes = await store.computeModules.listRuntimes();
  const deployedApps = (await Promise.all(runtimes.map((r) => store.computeModules.deployedAppsOf(r.runtimeId)))).flat();
  const enrollment = await store.enrollment.get();
  const services: Record<string, unknown> = {};
  const context = { store, secrets: true, omitted: () => undefined, dropped: (line: string) => void dropped.push(line) };
  for (const codec of codecs) services[codec.key] = await codec.export(context);
  return {
    platform: {
      users: (await store.users.list()).map(userSeedOf),
      oauth_clients: (await store.clients.list()).map(clientSeedOf),
      enrollment: { rid: enrollment.rid, name: enrollment.name },
      connections: (await store.connections.list()).map(connectionSeedOf),
      ontologies,
      compute_modules: { runtimes: runtimes.map(runtimeSeedOf), deployed_apps: deployedApps.map(deployedAppSeedOf) },
      ...services,
    },
  };
}

const HEADER = '# platform-emulator state export: start with `platform-emulator --config <this file>` or `--import <this file>`.\n';

export const stateAsYaml = (doc: StateDocument): string => HEADER + stringify(doc);
export const stateAsJson = (doc: StateDocument): string => `${JSON.stringify(doc, null, 2)}\n`;
