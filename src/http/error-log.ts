// The one log line of every platform error. docs/contracts.md §1: each errorInstanceId is logged, at the default
// level, so that a user can find the line an SDK error points to. The line is written here in pino's own
// layout (level, time, pid, hostname, then the fields and msg), to the logger's destination, because at one
// line per refused request pino's generic serializer was the largest part of what a bad request cost beyond
// a good one (~2 us of ~60 us in a profile). Its fields are fixed and carry no request data: nothing to redact.
import { hostname } from 'node:os';
import type { LogDestination, LogLevel } from '../logger.js';

export interface ErrorLine {
  reqId: string;
  /** Platform errors only; a line with one says "platform error", any other refusal "request refused". */
  errorInstanceId?: string;
  errorCode: string;
  errorName?: string;
  // Written by the journal hook (src/http/journal/hook.ts), the one place that logs a refusal.
  status?: number;
  method?: string;
  /** Redacted: no credential's value. */
  path?: string;
  reason?: string;
}

/** Writes the line at `info` (4xx) or `error` (5xx), when the service's level lets that level through. */
export type ErrorLineWriter = (level: 'info' | 'error', line: ErrorLine) => void;

/** pino's level numbers; a line passes when its number is at least the configured one's. */
const PINO_LEVEL: Record<LogLevel, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity };

/**
 * JSON string literals of the values refusals repeat (reasons, codes, paths): JSON.stringify of a reason was
 * ~150-200 ns, a lookup here ~10 ns, and most refused requests of a run carry the same few reasons. Bounded
 * (short values only, emptied when full), so that reasons and paths naming the caller's input cannot grow it.
 */
const JSON_CACHE_MAX = 512;
const JSON_CACHE_VALUE_MAX = 512;
const jsonCache = new Map<string, string>();
export function jsonString(value: string): string {
  if (value.length > JSON_CACHE_VALUE_MAX) return JSON.stringify(value);
  let json = jsonCache.get(value);
  if (json === undefined) {
    json = JSON.stringify(value);
    if (jsonCache.size >= JSON_CACHE_MAX) jsonCache.clear();
    jsonCache.set(value, json);
  }
  return json;
}

export function errorLineWriter(configured: LogLevel, destination: LogDestination): ErrorLineWriter {
  const info = PINO_LEVEL.info >= PINO_LEVEL[configured];
  const error = PINO_LEVEL.error >= PINO_LEVEL[configured];
  const host = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())}`;
  return (level, line) => {
    if (!(level === 'info' ? info : error)) return;
    const platform = line.errorInstanceId !== undefined;
    destination.write(
      `{"level":${PINO_LEVEL[level]},"time":${Date.now()}${host},"reqId":${JSON.stringify(line.reqId)},` +
        (platform ? `"errorInstanceId":"${line.errorInstanceId}",` : '') +
        `"errorCode":${jsonString(line.errorCode)},` +
        (line.errorName === undefined ? '' : `"errorName":${jsonString(line.errorName)},`) +
        (line.status === undefined ? '' : `"status":${line.status},`) +
        (line.method === undefined ? '' : `"method":${jsonString(line.method)},`) +
        (line.path === undefined ? '' : `"path":${jsonString(line.path)},`) +
        (line.reason === undefined ? '' : `"reason":${jsonString(line.reason)},`) +
        `"msg":"${platform ? 'platform error' : 'request refused'}"}\n`,
    );
  };
}
