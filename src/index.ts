// Programmatic API for test suites: start an emulator in-process, reset it between tests, close it at the end.
import { startServer, type RunningServer } from './main.js';
import type { Clock } from './clock.js';
import type { LogLevel } from './logger.js';

export interface EmulatorOptions {
  /** Path of a YAML seed file. */
  config?: string;
  /** Inline seed: YAML text or the parsed document (`{ platform: { users: [...] } }`). Ignored when `config` is set. */
  seed?: string | Record<string, unknown>;
  /** Port to listen on; defaults to the seed's `port`, else 0 (a free port). */
  port?: number;
  host?: string;
  /** Inject a clock to move time in tests (see ManualClock). */
  clock?: Clock;
  logLevel?: LogLevel;
  /** `memory` (the default) or a `postgres://` URL: state in PostgreSQL, shared with other instances on it. */
  store?: string;
}

export interface Emulator {
  /** Base URL, e.g. http://localhost:53121 (or the seed's base_url). */
  url: string;
  /** Back to the seed: every token, code, job, connection and user change is forgotten. */
  reset(): Promise<void>;
  close(): Promise<void>;
  /** The running server, for advanced use. */
  server: RunningServer;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const server = await startServer({
    configFile: options.config,
    seed: options.seed,
    port: options.port,
    defaultPort: 0,
    host: options.host,
    clock: options.clock,
    logLevel: options.logLevel ?? 'silent',
    store: options.store,
  });
  for (const warning of server.summary.warnings) server.app.log.warn(warning);
  return {
    url: server.url,
    server,
    reset: async () => void (await server.app.resetToSeed()),
    close: () => server.close(),
  };
}

export { ManualClock, systemClock, type Clock } from './clock.js';
export { SeedError } from './seed/load.js';
export type { Seed } from './seed/schema.js';
