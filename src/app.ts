// buildApp(deps): the table of contents of the service. Route families are registered in dependency order;
// each lives in its own folder under src/services and is the only code there that knows Fastify.
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import type { Store } from './store/store.js';
import type { Clock } from './clock.js';
import type { Settings } from './settings.js';
import type { Seed } from './seed/schema.js';
import { applySeed, type SeedSummary } from './seed/apply.js';
import { loggerOptions, logsRequests, type LogDestination, type LogLevel } from './logger.js';
import { installErrorRendering } from './http/render-error.js';
import { installServerLimits } from './http/server-limits.js';
import { installFastLanes } from './http/fast-lane.js';
import { sharedServerOptions } from './http/server-options.js';
import { errorLineWriter } from './http/error-log.js';
import { stdoutLines } from './log-sink.js';
import { installAuth } from './http/auth.js';
import { installCors } from './http/cors.js';
import { PathPolicies } from './http/path-policy.js';
import { installJournal } from './http/journal/index.js';
import { installFaults } from './http/faults.js';
import { rejectOtherMediaTypes, useJsonBodies } from './http/body-parsers.js';
import { lazyChildLogger } from './http/lazy-logger.js';
import { deferredValidation } from './http/deferred-validation.js';
import { pathAliasRewriter } from './http/path-aliases.js';
import { headAndAliasRewriter } from './head-requests.js';
import { refuseHeadWhereOptedOut } from './http/head-opt-out.js';
import { SERVICES, instanceLapseOf, seedCodecsOf } from './services/index.js';
import { InstanceLease } from './store/instance-lease.js';
import type { ServiceDeps, ServiceModule } from './services/service-module.js';

export interface AppDeps {
  settings: Readonly<Settings>;
  store: Store;
  clock: Clock;
  seed: Seed;
  logLevel?: LogLevel;
  /** Where log lines go (stdout when omitted); tests capture them here. */
  logDestination?: LogDestination;
  /** The services to serve, in order; the one list (src/services/index.ts) when omitted. */
  services?: readonly ServiceModule[];
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The public base address: `base_url`, else `http://localhost:{bound port}`. */
    publicUrl(): string;
    /** Clears the store and applies the seed again; runs every registered reset hook. */
    resetToSeed(): Promise<SeedSummary>;
    /**
     * Services that keep state beside the store (waiters, timers) register here to be reset too. A hook runs
     * before the store is cleared; with `afterClear` also once more after it, for a waiter that began between
     * the two (it would wait on state the clear threw away). With `withSeed` only once, right after the seed is
     * applied and in the same step (on PostgreSQL, the reset's transaction): state a reset must keep.
     */
    onReset(hook: () => void | Promise<void>, options?: { afterClear?: boolean; withSeed?: boolean }): void;
    /** Compiles now every route validator that would otherwise compile on its first request. */
    compileValidators(): void;
    /**
     * Services that expire state by the clock register here; when the control route moves the clock, each runs at
     * once (what the move expired is gone when the answer arrives) and its counts join the answer's `swept`.
     */
    onClockMoved(hook: () => Promise<Record<string, number>>): void;
    /** Runs every onClockMoved hook; their counts, merged. */
    clockMoved(): Promise<Record<string, number>>;
  }
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const services = deps.services ?? SERVICES;
  const codecs = seedCodecsOf(services);
  const level = deps.logLevel ?? 'silent';
  const destination = deps.logDestination ?? stdoutLines;
  const validation = deferredValidation();
  const pathPolicies = new PathPolicies(services.flatMap((s) => s.policy ?? []));
  const app = Fastify({
    logger: loggerOptions(level, destination),
    logController: new LogController({ disableRequestLogging: !logsRequests(level) }),
    childLoggerFactory: lazyChildLogger,
    // Body limit, the HTTP layer's refusals, connection limits, strict validation: as the pod listener's.
    ...sharedServerOptions(deps.settings),
    forceCloseConnections: 'idle',
    // HEAD is routed as GET (src/head-requests.ts): no HEAD twin of each GET route.
    exposeHeadRoutes: false,
    rewriteUrl: headAndAliasRewriter(pathAliasRewriter(deps.settings.pathAliases, pathPolicies.roots())),
    schemaController: { compilersFactory: { buildValidator: validation.buildValidator } },
  });

  const resetHooks: Array<() => void | Promise<void>> = [];
  const withSeedHooks: Array<() => void | Promise<void>> = [];
  const afterClearHooks: Array<() => void | Promise<void>> = [];
  app.decorate('publicUrl', () => {
    if (deps.settings.baseUrl) return deps.settings.baseUrl;
    const address = app.server.address() as AddressInfo | null;
    return `http://localhost:${address?.port ?? deps.settings.port}`;
  });
  app.decorate('compileValidators', validation.compileAll);
  app.decorate('onReset', (hook: () => void | Promise<void>, options?: { afterClear?: boolean; withSeed?: boolean }) => {
    if (options?.withSeed) return void withSeedHooks.push(hook);
    resetHooks.push(hook);
    if (options?.afterClear) afterClearHooks.push(hook);
  });
  const clockHooks: Array<() => Promise<Record<string, number>>> = [];
  app.decorate('onClockMoved', (hook: () => Promise<Record<string, number>>) => void clockHooks.push(hook));
  app.decorate('clockMoved', async () => Object.assign({}, ...(await Promise.all(clockHooks.map((hook) => hook())))) as Record<string, number>);
  // Resets of one instance run one after another: two at once would each clear what the other just seeded,
  // and on PostgreSQL each holds a transaction the other's rows wait on.
  let resetting: Promise<unknown> = Promise.resolve();
  const resetOnce = async () => {
    for (const hook of resetHooks) await hook();
    // Cleared and seeded as one step: other instances on a shared store never see it empty (store.resetWith).
    const summary = await deps.store.resetWith(async () => {
      const applied = await applySeed(deps.seed, deps.store, deps.clock, codecs);
      for (const hook of withSeedHooks) await hook();
      return applied;
    });
    for (const hook of afterClearHooks) await hook();
    return summary;
  };
  app.decorate('resetToSeed', () => {
    const next = resetting.then(resetOnce, resetOnce);
    resetting = next.catch(() => undefined);
    return next;
  });

  // Another instance reset the shared store: this one's waiters answer as they do after a local reset.
  const unsubscribe = deps.store.notifications.subscribe((topic) => {
    if (topic === 'reset') for (const hook of resetHooks) void Promise.resolve(hook()).catch(() => undefined);
  });
  app.addHook('onClose', async () => unsubscribe());

  app.decorate('pathPolicies', pathPolicies);
  installErrorRendering(app, errorLineWriter(level, destination));
  installJournal(app, { clock: deps.clock, size: deps.settings.journalSize, logLine: app.logPlatformError });
  installFaults(app);
  installServerLimits(app, deps.settings.limits, installFastLanes(app, deps));
  installAuth(app, deps);
  installCors(app, deps.settings.corsOrigins);
  refuseHeadWhereOptedOut(app);
  useJsonBodies(app);
  rejectOtherMediaTypes(app);

  // One lease per app, renewed while it runs: what its services hold on a shared store is taken back only once it lapses.
  const instance = new InstanceLease(deps.store, instanceLapseOf(services, deps.seed), (err, message) => app.log.error({ err }, message));
  app.addHook('onClose', async () => instance.stop());

  const serviceDeps: ServiceDeps = {
    settings: deps.settings,
    store: deps.store,
    clock: deps.clock,
    seed: deps.seed,
    resetToSeed: () => app.resetToSeed(),
    services,
    instance,
  };
  for (const service of services) {
    await service.routes?.(app, serviceDeps);
    await service.backstage?.routes?.(app, serviceDeps);
  }

  return app;
}
