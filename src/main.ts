// Entry: settings -> seed -> store -> app -> listen, and a graceful close on SIGTERM/SIGINT.
import type { FastifyInstance } from 'fastify';
import { writeFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { OffsetClock, type Clock } from './clock.js';
import { loadSeedFile, validateSeed } from './seed/load.js';
import type { Seed } from './seed/schema.js';
import { applySeed, type SeedSummary } from './seed/apply.js';
import { resolveSettings, type Settings } from './settings.js';
import { createMemoryStore } from './store/memory/index.js';
import type { Store } from './store/store.js';
import { buildApp } from './app.js';
import type { LogDestination, LogLevel } from './logger.js';
import { mergeSeeds } from './seed/merge.js';
import { exportState, stateAsJson, stateAsYaml } from './services/control/export-state.js';

interface ServerOptions {
  /** Path of a YAML seed file. */
  configFile?: string;
  /** A seed given inline: YAML text, or the parsed document with its root key `platform`. */
  seed?: string | Record<string, unknown>;
  /** A state export (or seed file) whose entities are laid over the seed's (--import). */
  importFile?: string;
  port?: number;
  /** Port when neither the options, PORT nor the seed set one (the CLI: 4000; test suites: 0). */
  defaultPort?: number;
  host?: string;
  clock?: Clock;
  logLevel?: LogLevel;
  logDestination?: LogDestination;
  /** Environment for PORT; the programmatic API passes none so that a test suite is not steered by it. */
  env?: NodeJS.ProcessEnv;
}

export interface RunningServer {
  url: string;
  app: FastifyInstance;
  store: Store;
  settings: Readonly<Settings>;
  summary: SeedSummary;
  close(): Promise<void>;
}

async function readSeed(options: Pick<ServerOptions, 'configFile' | 'seed'>): Promise<Seed> {
  if (options.configFile !== undefined) return loadSeedFile(options.configFile);
  if (typeof options.seed === 'string') return validateSeed(parse(options.seed) ?? {}, '<seed>');
  return validateSeed(options.seed ?? {}, '<seed>');
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const base = await readSeed(options);
  const seed = options.importFile === undefined ? base : mergeSeeds(base, await loadSeedFile(options.importFile));
  const settings = resolveSettings(seed, { port: options.port, host: options.host }, options.env ?? {}, options.defaultPort);
  // Real time, movable forward through the control route (an injected clock is used as it is).
  const clock = options.clock ?? new OffsetClock();
  const store = createMemoryStore();
  const summary = await applySeed(seed, store, clock);
  const app = await buildApp({ settings, store, clock, seed, logLevel: options.logLevel, logDestination: options.logDestination });
  await app.listen({ port: settings.port, host: settings.host });
  return {
    url: app.publicUrl(),
    app,
    store,
    settings,
    summary,
    async close() {
      await app.close();
      await store.close();
    },
  };
}

/** Writes the state as a seed document: JSON for a `.json` file, else YAML (--export-on-exit). */
export async function writeStateFile(store: Store, file: string): Promise<void> {
  const doc = await exportState(store);
  await writeFile(file, /\.json$/i.test(file) ? stateAsJson(doc) : stateAsYaml(doc), { mode: 0o600 });
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
    const exported = exportFile === undefined ? Promise.resolve(true) : writeStateFile(server.store, exportFile).then(
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
