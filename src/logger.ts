// Logger options: pino through Fastify, with every place a credential could appear redacted.
import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import { redactUrl } from './redact.js';
import { sentMethod } from './head-requests.js';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
export const LOG_LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** What pino and the platform-error line write to: one serialized line per call, newline included. */
export interface LogDestination {
  write(line: string): unknown;
  /** The line `head`, `time` in decimal, `middle`, `tail` (bytes, newline included): no whole line made as a string. */
  writeTimed?(head: Uint8Array, time: number, middle: string, tail: Uint8Array): void;
}

const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["module-auth-token"]',
  'headers.authorization',
  'headers["module-auth-token"]',
  '*.client_secret',
  '*.clientSecret',
  '*.code_verifier',
  '*.refresh_token',
  '*.access_token',
  '*.moduleAuthToken',
  '*.secrets',
  '*.value',
  // Connection secrets (docs/contracts.md §4). Request bodies are never logged; these guard against one slipping in.
  'body',
  'req.body',
  '*.body',
  '*.bearerToken',
  '*.apiKey',
  '*.password',
  '*.additionalSecrets',
];

/** `destination`: where lines go (src/log-sink.ts's batched stdout, or a test's capture). */
export function loggerOptions(level: LogLevel, destination: LogDestination): FastifyServerOptions['logger'] {
  if (level === 'silent') return false;
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    // The per-request lines (debug) show the URL with credentials' query values redacted, as the journal does.
    serializers: {
      req: (req: FastifyRequest) => ({
        method: sentMethod(req.raw),
        url: redactUrl(req.url),
        host: req.host,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
    stream: destination,
  } as FastifyServerOptions['logger'];
}

/** Per-request lines only at debug and trace: at info the log carries start-up, warnings and errors. */
export const logsRequests = (level: LogLevel): boolean => level === 'debug' || level === 'trace';
