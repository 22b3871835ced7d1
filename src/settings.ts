// Run-time settings: resolved once from the config file, the command line and the environment, then frozen.
import type { Seed } from './seed/schema.js';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Connections (docs/contracts.md §8): defaults a test suite never meets. A service's own caps are its (`Seed.limits`). */
export interface LimitSettings {
  maxConnections: number;
  /** Receiving a whole request, body included (not the handler's time: long-polls and held executes are not cut). */
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
}

export interface Settings {
  port: number;
  /** The TLS listener's port (docs/tls.md); 0 picks a free one; undefined: no TLS listener. */
  httpsPort?: number;
  /** Where the TLS listener's CA is kept across restarts. */
  dataDir: string;
  host: string;
  /** Public base address; undefined means `http://localhost:{port}` with the port actually bound. */
  baseUrl?: string;
  controlToken?: string;
  /** Origins whose pages may call the CORS routes (src/http/cors.ts). */
  corsOrigins: readonly string[];
  /** JSON and form bodies. */
  bodyLimitBytes: number;
  /** `memory`, or the `postgres://` URL of a shared store. */
  store: string;
  /** Entries the request journal keeps (docs/contracts.md §7); 0 turns it off. */
  journalSize: number;
  limits: LimitSettings;
  /** Path prefix -> one of ours, served as the target (docs/contracts.md §11; src/http/path-aliases.ts). */
  pathAliases: Readonly<Record<string, string>>;
}

const DEFAULT_PORT = 4000;
const DEFAULT_HOST = '127.0.0.1';
const MIB = 1024 * 1024;

/** Every loopback origin on any port: what a local dev server or test runner serves a page from (src/http/cors.ts). */
const DEFAULT_CORS_ORIGINS: readonly string[] = ['http://localhost:*', 'http://127.0.0.1:*', 'http://[::1]:*'];

/**
 * Where kept files live (the TLS CA, src/tls/ca-store.ts): PLATFORM_EMULATOR_DATA_DIR, else
 * $XDG_DATA_HOME/platform-emulator, else ~/.local/share/platform-emulator.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.PLATFORM_EMULATOR_DATA_DIR) return env.PLATFORM_EMULATOR_DATA_DIR;
  return join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'platform-emulator');
}

export interface SettingOverrides {
  port?: number;
  /** --https-port */
  httpsPort?: number;
  /** Where kept files live (the TLS CA); else PLATFORM_EMULATOR_DATA_DIR, XDG_DATA_HOME, ~/.local/share. */
  dataDir?: string;
  host?: string;
  /** --store: `memory` or a `postgres://` URL. */
  store?: string;
}

/**
 * Precedence for the port: --port, then PORT, then the config file, then the default (4000). For the store:
 * --store, then the config's `store`, then DATABASE_URL, then memory.
 */
export function resolveSettings(
  seed: Seed,
  overrides: SettingOverrides = {},
  env: NodeJS.ProcessEnv = process.env,
  defaultPort = DEFAULT_PORT,
): Readonly<Settings> {
  const envPort = env.PORT !== undefined && env.PORT !== '' ? parsePort(env.PORT, 'PORT') : undefined;
  return Object.freeze({
    port: overrides.port ?? envPort ?? seed.port ?? defaultPort,
    httpsPort: overrides.httpsPort ?? seed.https_port,
    dataDir: overrides.dataDir ?? defaultDataDir(env),
    host: overrides.host ?? seed.host ?? DEFAULT_HOST,
    baseUrl: seed.base_url?.replace(/\/+$/, ''),
    controlToken: seed.control_token,
    corsOrigins: Object.freeze([...(seed.cors_origins ?? DEFAULT_CORS_ORIGINS)]),
    bodyLimitBytes: MIB,
    store: resolveStore(overrides.store ?? seed.store ?? (env.DATABASE_URL || undefined) ?? 'memory'),
    journalSize: seed.journal_size ?? 1000,
    pathAliases: Object.freeze({ ...seed.path_aliases }),
    limits: Object.freeze({
      maxConnections: seed.limits.max_connections ?? 10_000,
      requestTimeoutMs: seed.limits.request_timeout_ms ?? 60_000,
      headersTimeoutMs: seed.limits.headers_timeout_ms ?? 20_000,
      keepAliveTimeoutMs: seed.limits.keep_alive_timeout_ms ?? 30_000,
    }),
  });
}

function resolveStore(spec: string): string {
  if (spec === 'memory' || /^postgres(ql)?:\/\/./i.test(spec)) return spec;
  // Not quoted: a URL may carry a password.
  throw new RangeError('store: the value is neither `memory` nor a postgres:// URL');
}

export function parsePort(text: string, what: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new RangeError(`${what}: "${text}" is not a port number (0-65535)`);
  return port;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost', '[::1]']);
export const isLoopbackHost = (host: string): boolean => LOOPBACK.has(host) || host.startsWith('127.');
