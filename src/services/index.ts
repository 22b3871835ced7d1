// The one list of services. The app registers them in this order; the seed loader, reset, the state export,
// the dashboard, the event stream and the start summary iterate it. Adding an API: a folder with an index.ts
// exporting its ServiceModule, and one line here (docs/architecture.md, "Adding an API").
import type { ServiceModule } from './service-module.js';
import type { StorePart } from '../store/parts.js';
import type { Seed } from '../seed/schema.js';
import { DEFAULT_INSTANCE_LAPSE_MS } from '../store/instance-lease.js';
import { controlService } from './control/index.js';
import { oauthService } from './oauth/index.js';
import { adminService } from './admin/index.js';
import { connectivityService } from './connectivity/index.js';
import { ontologiesService } from './ontologies/index.js';
import { computeModulesService } from './compute-modules/index.js';
import { functionsService } from './functions/index.js';
import { datasetsService } from './datasets/index.js';
import { filesystemService } from './filesystem/index.js';
import { streamsService } from './streams/index.js';

export const SERVICES: readonly ServiceModule[] = [
  controlService,
  adminService,
  oauthService,
  connectivityService,
  ontologiesService,
  computeModulesService,
  functionsService,
  datasetsService,
  filesystemService,
  streamsService,
];

/** Every store part of the listed services: what a store is opened with. */
export const servicePartsOf = (services: readonly ServiceModule[]): StorePart<unknown>[] => services.flatMap((s) => s.store ?? []);

/** The app's instance lease lapse: the shortest a listed service asks for (src/store/instance-lease.ts). */
export function instanceLapseOf(services: readonly ServiceModule[], seed: Seed): number {
  const asked = services.flatMap((s) => (s.instanceLapseMs ? [s.instanceLapseMs(seed)] : []));
  return asked.length === 0 ? DEFAULT_INSTANCE_LAPSE_MS : Math.min(...asked);
}

/** Every scope a listed service checks, for the scope matrix and the metadata document. */
export const serviceScopesOf = (services: readonly ServiceModule[]): string[] => [...new Set(services.flatMap((s) => s.scopes ?? []))];

export { seedCodecsOf } from './seed-codecs.js';
