// The seam every emulated API plugs in through (docs/architecture.md, "Adding an API"). Each folder under
// src/services exports one ServiceModule from its index.ts; src/services/index.ts lists them; the app, the seed
// loader, reset, the state export, the dashboard, the event stream and the start summary iterate that list and
// name no service. Only a service's routes and backstage files touch the HTTP framework; this file refers to
// the app by the HTTP layer's name for it (HttpApp).
import type { Store } from '../store/store.js';
import type { StorePart } from '../store/parts.js';
import type { Clock } from '../clock.js';
import type { InstanceLease } from '../store/instance-lease.js';
import type { PathPolicy } from '../http/path-policy.js';
import type { HttpApp } from '../http/route-config.js';
import type { Settings } from '../settings.js';
import type { Seed } from '../seed/schema.js';
import type { AnySeedCodec, SeedCodec } from '../seed/codec.js';

/** What every service's routes and backstage are given: the same injected parts the app was built with. */
export interface ServiceDeps {
  settings: Readonly<Settings>;
  store: Store;
  clock: Clock;
  seed: Seed;
  /** Clears the store and applies the seed again (the control reset, and a service that needs it). */
  resetToSeed(): Promise<unknown>;
  /** The services this app serves, in order: what the generic control routes iterate. */
  services: readonly ServiceModule[];
  /**
   * This instance's lease on a shared store (src/store/instance-lease.ts): its id names what the instance holds
   * (handed-out jobs, one-call uploads' transactions); another instance takes those back once it lapses.
   */
  instance: InstanceLease;
}

/** A view the dashboard shows for a service: fetched from `listPath` and drawn as a table of its columns. */
export interface DashboardView {
  /** The tab's title. */
  title: string;
  /** A control route answering `{items: [...]}` for the view, paged by `pageToken` and filtered by `q`. */
  listPath: string;
  /** The columns: a field of each item and its heading. */
  columns: ReadonlyArray<{ field: string; heading: string }>;
  /** The topic whose change events refresh the view. */
  topic: string;
}

/**
 * A panel the dashboard shows for a service, drawn by a browser script of the service's own: a file in its
 * folder's `ui/` (shipped as dist/ui/panels/<service>/ by the build), an ES module whose default export's
 * `load()` draws into the elements `<id>-body` and `<id>-count` with /_emulate/ui/panel-kit.js.
 */
export interface DashboardPanel {
  /** The panel element's id (unique on the page). */
  id: string;
  title: string;
  /** The script's file name in the service's `ui/` folder. */
  script: string;
  /** The change topics whose events redraw it. */
  topics: readonly string[];
  /** Spans the page's whole width. */
  wide?: boolean;
}

/** A service's control side: its /_emulate routes, its dashboard panels and views. */
export interface Backstage {
  routes?(app: HttpApp, deps: ServiceDeps): void | Promise<void>;
  /** Panels drawn by its own scripts, before the views. */
  panels?: readonly DashboardPanel[];
  views?: readonly DashboardView[];
}

/** One thing a service keeps that the filesystem's tree shows as a resource (docs/directory.md, "Other services' resources"). */
export interface ProvidedResource {
  rid: string;
  displayName: string;
  /** The platform's ResourceType (FOUNDRY_DATASET, MAGRITTE_SOURCE, ...). */
  type: string;
  parentFolderRid: string;
}

/** The resources a service keeps, read by the filesystem when it walks its tree; the service stays their owner. */
export interface ResourceProvider {
  get(store: Store, rid: string): Promise<ProvidedResource | undefined>;
  /** Every resource it keeps (few: the filesystem filters them by parent). */
  list(store: Store): Promise<ProvidedResource[]>;
}

export type { AnySeedCodec, SeedCodec, PathPolicy };

export interface ServiceModule {
  /** The folder's name, as logs, the journal and the dashboard show it. */
  name: string;
  /** The OAuth scopes this service's routes check, collected into the scope matrix. */
  scopes?: readonly string[];
  /** Answers given before routing, CORS and change topics, by path. */
  policy?: readonly PathPolicy[];
  /** The seed keys it owns. */
  seed?: readonly AnySeedCodec[];
  /** Its tables: repositories built by each backend, emptied on reset, covered by the PostgreSQL pass. */
  store?: readonly StorePart<unknown>[];
  /**
   * On a shared store, how long after its instance's last lease renewal what this service hands out may be taken
   * back, as its seed sets it; the app's lease lapses after the shortest any listed service asks for.
   */
  instanceLapseMs?(seed: Seed): number;
  /** Its public routes. */
  routes?(app: HttpApp, deps: ServiceDeps): void | Promise<void>;
  /** Its entry points for the JSON index at `GET /`, given the public base address. */
  entryPoints?(base: string): Record<string, unknown>;
  /** What it keeps that the filesystem's tree shows as resources. */
  resources?: ResourceProvider;
  backstage?: Backstage;
}
