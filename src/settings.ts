// Run-time settings: resolved once from the config file, the command line and the environment, then frozen.
import type { Seed } from './seed/schema.js';
import { DEFAULT_CORS_ORIGINS } from './http/cors.js';

export interface ComputeModuleSettings {
  pollTimeoutMs: number;
  executeTimeoutMs: number;
  retainedJobs: number;
  maxResultBytes: number;
}

export interface Settings {
  port: number;
  host: string;
  /** Public base address; undefined means `http://localhost:{port}` with the port actually bound. */
  baseUrl?: string;
  controlToken?: string;
  /** Origins whose pages may call the CORS routes (src/http/cors.ts). */
  corsOrigins: readonly string[];
  /** JSON and form bodies. */
  bodyLimitBytes: number;
  computeModules: ComputeModuleSettings;
  /** Entries the request journal keeps (CONTRACTS §7); 0 turns it off. */
  journalSize: number;
}

const DEFAULT_PORT = 4000;
const DEFAULT_HOST = '127.0.0.1';
const MIB = 1024 * 1024;

export interface SettingOverrides {
  port?: number;
  host?: string;
}

/** Precedence for the port: --port, then PORT, then the config file, then the default (4000). */
export function resolveSettings(seed: Seed, overrides: SettingOverrides = {}, env: NodeJS.ProcessEnv = process.env, defaultPort = DEFAULT_PORT): Readonly<Settings> {
  const envPort = env.PORT !== undefined && env.PORT !== '' ? parsePort(env.PORT, 'PORT') : undefined;
  const cm = seed.compute_modules;
  return Object.freeze({
    port: overrides.port ?? envPort ?? seed.port ?? defaultPort,
    host: overrides.host ?? seed.host ?? DEFAULT_HOST,
    baseUrl: seed.base_url?.replace(/\/+$/, ''),
    controlToken: seed.control_token,
    corsOrigins: Object.freeze([...(seed.cors_origins ?? DEFAULT_CORS_ORIGINS)]),
    bodyLimitBytes: MIB,
    journalSize: seed.journal_size ?? 1000,
    computeModules: Object.freeze({
      pollTimeoutMs: cm.poll_timeout_ms ?? 2000,
      executeTimeoutMs: cm.execute_timeout_ms ?? 300_000,
      retainedJobs: cm.retained_jobs ?? 10_000,
      maxResultBytes: cm.max_result_bytes ?? 32 * MIB,
    }),
  });
}

export function parsePort(text: string, what: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new RangeError(`${what}: "${text}" is not a port number (0-65535)`);
  return port;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost', '[::1]']);
export const isLoopbackHost = (host: string): boolean => LOOPBACK.has(host) || host.startsWith('127.');
