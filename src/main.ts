// Entry: settings -> seed -> store -> app -> listen, and a graceful close on SIGTERM/SIGINT.
import type { FastifyInstance } from 'fastify';
import { parse } from 'yaml';
import { OffsetClock, type Clock } from './clock.js';
import { loadSeedFile, validateSeed } from './seed/load.js';
import type { Seed } from './seed/schema.js';
import { applySeed, summarizeStore, type SeedSummary } from './seed/apply.js';
import { resolveSettings, type Settings } from './settings.js';
import { openStore, seedStore } from './store/open.js';
import type { Store } from './store/store.js';
import { buildApp } from './app.js';
import type { LogDestination, LogLevel } from './logger.js';

interface ServerOptions {
  /** Path of a YAML seed file. */
  configFile?: string;
  /** A seed given inline: YAML text, or the parsed document with its root key `platform`. */
  seed?: string | Record<string, unknown>;
  port?: number;
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
  const seed = await readSeed(options);
  const settings = resolveSettings(seed, { port: options.port, host: options.host, store: options.store }, options.env ?? {}, options.defaultPort);
  // Real time, movable forward through the control route (an injected clock is used as it is).
  const clock = options.clock ?? new OffsetClock();
  const store = await openStore(settings.store);
  let app: FastifyInstance | undefined;
  let summary: SeedSummary | undefined;
  try {
    // A shared store is seeded once, when its database is new; a restart keeps what it holds.
    await seedStore(store, async () => void (summary = await applySeed(seed, store, clock)));
    summary ??= await summarizeStore(seed, store);
    app = await buildApp({ settings, store, clock, seed, logLevel: options.logLevel, logDestination: options.logDestination });
    await app.listen({ port: settings.port, host: settings.host });
  } catch (err) {
    await app?.close().catch(() => undefined);
    await store.close().catch(() => undefined);
    throw err;
  }
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

/** Closes on SIGTERM or SIGINT: stop accepting, let in-flight requests finish for up to `graceMs`, exit 0. */
export function closeOnSignals(server: RunningServer, graceMs = 10_000): void {
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
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}
