// Logger options: pino through Fastify, with every place a credential could appear redacted.
import type { FastifyServerOptions } from 'fastify';
import { stdoutLines } from './log-sink.js';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
export const LOG_LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

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
  // Connection secrets (CONTRACTS §4). Request bodies are never logged; these guard against one slipping in.
  'body',
  'req.body',
  '*.body',
  '*.bearerToken',
  '*.apiKey',
  '*.password',
  '*.additionalSecrets',
];

export function loggerOptions(level: LogLevel, destination?: NodeJS.WritableStream): FastifyServerOptions['logger'] {
  if (level === 'silent') return false;
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    stream: destination ?? stdoutLines,
  } as FastifyServerOptions['logger'];
}

/** Per-request lines only at debug and trace: at info the log carries start-up, warnings and errors. */
export const logsRequests = (level: LogLevel): boolean => level === 'debug' || level === 'trace';
