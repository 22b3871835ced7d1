// Entry: settings -> seed -> store -> app -> listen, and a graceful close on SIGTERM/SIGINT.
import type { FastifyInstance } from 'fastify';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { OffsetClock, type Clock } from './clock.js';
import { loadSeedFile, validateSeed } from './seed/load.js';
import type { Seed } from './seed/schema.js';
import { applySeed, summarizeStore, type SeedSummary } from './seed/apply.js';
import { resolveSettings, type Settings } from './settings.js';
import { openStore, seedStore } from './store/open.js';
import { SERVICES, seedCodecsOf, servicePartsOf } from './services/index.js';
import type { ServiceModule } from './services/service-module.js';
import type { AnySeedCodec } from './seed/codec.js';
import type { Store } from './store/store.js';
import { buildApp } from './app.js';
import { logsRequests, type LogDestination, type LogLevel } from './logger.js';
import { controlRouteWarning, listenError } from './startup-words.js';
import { mergeSeeds } from './seed/merge.js';
import { besideFolder, exportState, stateAsJson, stateAsYaml } from './seed/export.js';
import { startPodListener } from './pod-app.js';
import { computeModuleSettingsOf } from './services/compute-modules/settings.js';
import type { PodListener } from './services/compute-modules/pod-runtime.js';
import { startHttpsListener, type HttpsListener } from './tls/https-listener.js';

interface ServerOptions {
  /** Path of a YAML seed file. */
  configFile?: string;
  /** A seed given inline: YAML text, or the parsed document with its root key `platform`. */
  seed?: string | Record<string, unknown>;
  /** A state export (or seed file) whose entities are laid over the seed's (--import). */
  importFile?: string;
  /** Accept an import that left secrets out (--allow-missing-secrets). */
  allowMissingSecrets?: boolean;
  port?: number;
  /** The TLS listener's port (--https-port; 0 picks a free one); else the config's `https_port`; else none. */
  httpsPort?: number;
  /** Where the TLS listener's CA is kept (docs/tls.md). */
  dataDir?: string;
  /** Port when neither the options, PORT nor the seed set one (the CLI: 4000; test suites: 0). */
  defaultPort?: number;
  host?: string;
  clock?: Clock;
  logLevel?: LogLevel;
  logDestination?: LogDestination;
  /** `memory` or a `postgres://` URL (--store); else the config's `store`, else DATABASE_URL from `env`. */
  store?: string;
  /** Environment for PORT and DATABASE_URL; the programmatic API passes none so that a test suite is not steered by it. */
  env?: NodeJS.ProcessEnv;
  /** The services to serve; the one list (src/services/index.ts) when omitted. */
  services?: readonly ServiceModule[];
}

export interface RunningServer {
  url: string;
  app: FastifyInstance;
  store: Store;
  settings: Readonly<Settings>;
  summary: SeedSummary;
  /** The services served, in order. */
  services: readonly ServiceModule[];
  /** The in-pod runtime listener (docs/contracts.md §10), started on first call: its HTTPS URL and the CA a module trusts. */
  podListener(): Promise<PodListener>;
  /** The TLS listener beside plain http, when one was asked for (docs/tls.md). */
  https?: HttpsListener;
  close(): Promise<void>;
}

async function readSeed(options: Pick<ServerOptions, 'configFile' | 'seed'>, codecs: readonly AnySeedCodec[]): Promise<Seed> {
  if (options.configFile !== undefined) return loadSeedFile(options.configFile, codecs);
  if (typeof options.seed === 'string') return validateSeed(parse(options.seed) ?? {}, '<seed>', codecs);
  return validateSeed(options.seed ?? {}, '<seed>', codecs);
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const services = options.services ?? SERVICES;
  const codecs = seedCodecsOf(services);
  const base = await readSeed(options, codecs);
  const seed =
    options.importFile === undefined
      ? base
      : mergeSeeds(base, await loadSeedFile(options.importFile, codecs, { allowMissingSecrets: options.allowMissingSecrets }), codecs);
  const settings = resolveSettings(
    seed,
    { port: options.port, httpsPort: options.httpsPort, dataDir: options.dataDir, host: options.host, store: options.store },
    options.env ?? {},
    options.defaultPort,
  );
  const jobSettings = computeModuleSettingsOf(seed);
  // Real time, movable forward through the control route (an injected clock is used as it is).
  const clock = options.clock ?? new OffsetClock();
  const store = await openStore(settings.store, servicePartsOf(services));
  let app: FastifyInstance | undefined;
  let summary: SeedSummary | undefined;
  try {
    // A shared store is seeded once, when its database is new; a restart keeps what it holds.
    const seeded = await seedStore(store, async () => void (summary = await applySeed(seed, store, clock, codecs)));
    summary ??= await summarizeStore(seed, store, codecs);
    app = await buildApp({ settings, store, clock, seed, logLevel: options.logLevel, logDestination: options.logDestination, services });
    // An import the database already had state for is not applied: say so, or it looks lost.
    if (!seeded && options.importFile !== undefined)
      app.log.warn(
        { file: options.importFile },
        'the --import file was not applied: the database holds state already, and a seed is applied only to a new one (a reset applies it)',
      );
  } catch (err) {
    await app?.close().catch(() => undefined);
    await store.close().catch(() => undefined);
    throw err;
  }
  const built = app;
  // The pod listener shares the app's JobService. On a free port (the default) it starts with the first
  // runtime session, which is how a module learns its port, so that its TLS material (an X.509 library
  // loaded on demand, keys, signatures) costs nothing at start-up; on a configured port it starts with the app.
  let pod: Promise<PodListener> | undefined;
  const logRequests = logsRequests(options.logLevel ?? 'silent');
  const podListener = () =>
    (pod ??= startPodListener({ store, settings, jobs: built.podRuntime.jobs!, jobSettings, log: built.log, logRequests, journal: built.journal }).catch(
      (err: unknown) => {
        pod = undefined; // a later session tries again
        throw err;
      },
    ));
  app.podRuntime.listener = podListener;
  let https: HttpsListener | undefined;
  const stop = async () => {
    await built.close();
    await https?.close();
    await pod?.then(
      (p) => p.close(),
      () => undefined,
    );
    await store.close();
  };
  try {
    await app.listen({ port: settings.port, host: settings.host });
  } catch (err) {
    await stop();
    throw listenError(err, settings);
  }
  try {
    if (settings.httpsPort !== undefined) {
      https = await startHttpsListener(app, settings, settings.httpsPort, settings.dataDir);
      // For run-module: a module's DEFAULT_CA_PATH trusts this listener too (docs/functions.md, "Module environment").
      app.podRuntime.publicTls = { url: https.url, caCertificate: await readFile(https.caFile, 'utf8') };
    }
    if (jobSettings.podListenerPort !== 0) await podListener();
  } catch (err) {
    await stop();
    throw err;
  }
  const controlWarning = controlRouteWarning(settings);
  if (controlWarning) summary.warnings.push(controlWarning);
  return {
    url: app.publicUrl(),
    app,
    store,
    settings,
    summary,
    services,
    podListener,
    https,
    async close() {
      // The app first: its preClose answers every held poll, the pod listener's and the TLS listener's too.
      await app.close();
      await https?.close();
      await pod?.then(
        (p) => p.close(),
        () => undefined,
      );
      await store.close();
    },
  };
}

/**
 * Writes the state as a seed document, JSON for a `.json` file, else YAML (--export-on-exit), with its secrets
 * (the file is the user's own, mode 0600; docs/contracts.md §7).
 */
export async function writeStateFile(server: Pick<RunningServer, 'store' | 'services'>, file: string): Promise<void> {
  // Large dataset files go beside it, in `<file>.files/`, named by `from:` (docs/datasets.md, "Seed"). The
  // document goes in by a rename, as the folder does: a failure leaves the last export as it was.
  const beside = besideFolder(file);
  const partial = `${file}.partial-${process.pid}`;
  try {
    const doc = await exportState(server.store, seedCodecsOf(server.services), { secrets: true, beside });
    await writeFile(partial, /\.json$/i.test(file) ? stateAsJson(doc) : stateAsYaml(doc), { mode: 0o600 });
    await beside.commit();
    await rename(partial, file);
  } catch (err) {
    await Promise.all([beside.discard(), rm(partial, { force: true })]);
    throw err;
  }
}

/**
 * Closes on SIGTERM or SIGINT: stop accepting, let in-flight requests finish for up to `graceMs`, exit 0.
 * With `exportFile`, the state is written there first (a failure to write is logged and exits 1).
 */
export function closeOnSignals(server: RunningServer, graceMs = 10_000, exportFile?: string): void {
  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    server.app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      server.app.server.closeAllConnections();
      process.exit(0);
    }, graceMs);
    force.unref();
    const exported =
      exportFile === undefined
        ? Promise.resolve(true)
        : writeStateFile(server, exportFile).then(
            () => (server.app.log.info({ file: exportFile }, 'state exported'), true),
            (err: unknown) => (server.app.log.error({ err, file: exportFile }, 'state export failed'), false),
          );
    void exported.then((ok) =>
      server.close().then(
        () => process.exit(ok ? 0 : 1),
        () => process.exit(1),
      ),
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}
