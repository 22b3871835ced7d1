// Programmatic API for test suites: start an emulator in-process, reset it between tests, close it at the end,
// and arrange or inspect state through typed helpers (the control routes of docs/contracts.md §7, without HTTP plumbing).
import { startServer, type RunningServer } from './main.js';
import type { Clock } from './clock.js';
import type { LogLevel } from './logger.js';
import type { JournalEntry, JournalFilter } from './http/journal/index.js';
import type { ArmedFault } from './http/faults.js';
import { exportState, type StateDocument } from './seed/export.js';
import { seedCodecsOf } from './services/seed-codecs.js';

export interface EmulatorOptions {
  /** Path of a YAML seed file. */
  config?: string;
  /** Inline seed: YAML text or the parsed document (`{ platform: { users: [...] } }`). Ignored when `config` is set. */
  seed?: string | Record<string, unknown>;
  /** Port to listen on; defaults to 0 (a free port), even when the seed names one: the seed's port is for the CLI. */
  port?: number;
  host?: string;
  /** Inject a clock to move time in tests (see ManualClock). */
  clock?: Clock;
  logLevel?: LogLevel;
  /** `memory` (the default) or a `postgres://` URL: state in PostgreSQL, shared with other instances on it. */
  store?: string;
  /** Also serve TLS on this port (0: a free one), with a certificate from the CA kept in `dataDir` (docs/tls.md). */
  httpsPort?: number;
  /** Where the TLS CA is kept; else PLATFORM_EMULATOR_DATA_DIR, XDG_DATA_HOME, ~/.local/share/platform-emulator. */
  dataDir?: string;
}

/** What `fault()` arms: the next `times` (default 1) requests matching `method` and `path` get `status`/`body`, or wait `delayMs` first. */
export interface FaultOptions {
  /** An HTTP method, or `*` (the default) for any. */
  method?: string;
  /** Exact path, or a pattern: `*` within one segment, `**` across segments (`/api/v2/**`). */
  path: string;
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
  times?: number;
}

export interface Emulator {
  /** Base URL, e.g. http://localhost:53121 (or the seed's base_url). */
  url: string;
  /** With `httpsPort`: the TLS listener's URL (`https://localhost:{port}`) and the CA file a client trusts. */
  https?: { url: string; caFile: string };
  /** Back to the seed: every token, code, job, connection and user change is forgotten, and the journal and faults too. */
  reset(): Promise<void>;
  close(): Promise<void>;
  /** An access token for a seeded user, as `POST /_emulate/platform/tokens` mints it. */
  mintToken(username?: string, scopes?: string[]): Promise<string>;
  /** The request journal, newest first (docs/contracts.md §7): every request with its status, and each refusal's reason. */
  journal(filter?: JournalFilter): JournalEntry[];
  /** Moves the service's clock forward (tokens and codes expire); returns the new time (ISO-8601). */
  advanceClock(ms: number): Promise<string>;
  /**
   * Sets the result a query of an ontology (api name or rid) answers with. For a typed query with `cases`, this
   * is the default `result` (what answers when no case matches); the cases stay. A query not seeded is added,
   * untyped (parameters not checked).
   */
  setQueryResult(ontology: string, query: string, result: unknown): Promise<void>;
  /**
   * Creates or replaces (every value) the object of a seeded object type with this primary key, checked as
   * the seed checks objects; `values` are its properties (the primary key may be left out). Returns whether it
   * was created and the values stored.
   */
  putObject(
    ontology: string,
    objectType: string,
    primaryKey: string | number,
    values: Record<string, unknown>,
  ): Promise<{ created: boolean; object: Record<string, unknown> }>;
  /** Deletes an object and its many-to-many pairs; refused while another object's foreign key names it. */
  deleteObject(ontology: string, objectType: string, primaryKey: string | number): Promise<void>;
  /** Arms a one-shot fault; returns it with its id. */
  fault(options: FaultOptions): Promise<ArmedFault>;
  /** The current state as a seed document, which `config`/`seed` (or the CLI's --config/--import) accept. */
  /** The state as a seed document; secrets only with `{secrets: true}` (each one left out is named). */
  exportState(options?: { secrets?: boolean }): Promise<StateDocument>;
  /** The running server, for advanced use. */
  server: RunningServer;
}

const objectPath = (ontology: string, objectType: string, primaryKey: string | number) =>
  `/_emulate/platform/ontologies/${encodeURIComponent(ontology)}/objects/${encodeURIComponent(objectType)}/${encodeURIComponent(String(primaryKey))}`;

export class EmulatorControlError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    what: string,
  ) {
    super(`${what} failed with ${status}: ${body}`);
  }
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const server = await startServer({
    configFile: options.config,
    seed: options.seed,
    port: options.port ?? 0,
    defaultPort: 0,
    host: options.host,
    clock: options.clock,
    logLevel: options.logLevel ?? 'silent',
    store: options.store,
    httpsPort: options.httpsPort,
    dataDir: options.dataDir ?? process.env.PLATFORM_EMULATOR_DATA_DIR,
  });
  for (const warning of server.summary.warnings) server.app.log.warn(warning);
  const { app } = server;
  const control = server.settings.controlToken ? { authorization: `Bearer ${server.settings.controlToken}` } : {};

  /** Through the control routes in process, so that the helpers behave (and are journaled) as the routes are. */
  async function call(method: 'POST' | 'PUT' | 'DELETE', url: string, payload: object | undefined, what: string): Promise<Record<string, unknown>> {
    const res = await app.inject({ method, url, payload, headers: control });
    if (res.statusCode !== 200) throw new EmulatorControlError(res.statusCode, res.body, what);
    return res.json() as Record<string, unknown>;
  }

  return {
    url: server.url,
    https: server.https && { url: server.https.url, caFile: server.https.caFile },
    server,
    reset: async () => void (await app.resetToSeed()),
    close: () => server.close(),
    mintToken: async (username = 'admin', scopes = []) =>
      (await call('POST', '/_emulate/platform/tokens', { username, scopes }, `mintToken(${username})`)).access_token as string,
    journal: (filter) => app.journal.list(filter),
    advanceClock: async (ms) => (await call('POST', '/_emulate/platform/clock', { advanceMs: ms }, 'advanceClock')).now as string,
    setQueryResult: async (ontology, query, result) => {
      const path = `/_emulate/platform/ontologies/${encodeURIComponent(ontology)}/queries/${encodeURIComponent(query)}`;
      await call('PUT', path, { result }, `setQueryResult(${ontology}, ${query})`);
    },
    putObject: async (ontology, objectType, primaryKey, values) => {
      const res = await call('PUT', objectPath(ontology, objectType, primaryKey), values, `putObject(${ontology}, ${objectType}, ${primaryKey})`);
      return { created: res.created as boolean, object: res.object as Record<string, unknown> };
    },
    deleteObject: async (ontology, objectType, primaryKey) =>
      void (await call('DELETE', objectPath(ontology, objectType, primaryKey), undefined, `deleteObject(${ontology}, ${objectType}, ${primaryKey})`)),
    fault: async (fault) => (await call('POST', '/_emulate/platform/faults', fault, 'fault')) as unknown as ArmedFault,
    exportState: (options) => exportState(server.store, seedCodecsOf(server.services), options),
  };
}

export { ManualClock, systemClock, type Clock } from './clock.js';
export { SeedError } from './seed/load.js';
export type { Seed } from './seed/schema.js';
export type { JournalEntry, JournalFilter } from './http/journal/index.js';
export type { ArmedFault } from './http/faults.js';
export type { StateDocument } from './seed/export.js';
