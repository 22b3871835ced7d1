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
export interface ErrorLineWriter {
  (level: 'info' | 'error', line: ErrorLine): void;
  /**
   * The same line, for a refusal that repeats: a shared, frozen refusal (`key`) answered on `url` with `status` and
   * `method` fixes every field but the time, so the line's bytes after the time are made once, from `line()`.
   */
  repeated(level: 'info' | 'error', key: object, url: string, status: number, method: string, line: () => ErrorLine): void;
}

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

/**
 * A line as pino lays it out, in the parts that change at different rates: `head(level)`, the time, the
 * `middle` (pid, hostname, reqId, errorInstanceId: per request), then the `tail` (the refusal's words).
 */
const head = (level: 'info' | 'error') => `{"level":${PINO_LEVEL[level]},"time":`;

function tailText(line: ErrorLine): string {
  return (
    `"errorCode":${jsonString(line.errorCode)},` +
    (line.errorName === undefined ? '' : `"errorName":${jsonString(line.errorName)},`) +
    (line.status === undefined ? '' : `"status":${line.status},`) +
    (line.method === undefined ? '' : `"method":${jsonString(line.method)},`) +
    (line.path === undefined ? '' : `"path":${jsonString(line.path)},`) +
    (line.reason === undefined ? '' : `"reason":${jsonString(line.reason)},`) +
    `"msg":"${line.errorInstanceId !== undefined ? 'platform error' : 'request refused'}"}\n`
  );
}

/** A tail's UTF-8 bytes and the fields they were made from. */
interface KeptTail {
  line: ErrorLine;
  bytes: Buffer;
}

const sameTail = (a: ErrorLine, b: ErrorLine) =>
  a.reason === b.reason &&
  a.errorCode === b.errorCode &&
  a.errorName === b.errorName &&
  a.status === b.status &&
  a.method === b.method &&
  a.path === b.path &&
  (a.errorInstanceId === undefined) === (b.errorInstanceId === undefined);

// Building a ~300-character line and encoding it was most of what a refused request costs beyond a served one
// (bench bad-input). Most refusals of a run repeat a few tails, so their bytes are kept (by reason, checked
// field by field) and copied; only the time and the middle are written per line.
const TAILS_MAX = 256;
const MAX_URLS_PER_KEY = 16;

export function errorLineWriter(configured: LogLevel, destination: LogDestination): ErrorLineWriter {
  const info = PINO_LEVEL.info >= PINO_LEVEL[configured];
  const error = PINO_LEVEL.error >= PINO_LEVEL[configured];
  const host = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())},"reqId":`;
  const middle = (line: ErrorLine) =>
    host + JSON.stringify(line.reqId) + (line.errorInstanceId !== undefined ? `,"errorInstanceId":"${line.errorInstanceId}",` : ',');
  const heads = { info: Buffer.from(head('info')), error: Buffer.from(head('error')) };

  // Platform errors' tails and other refusals' apart: the same reason may end in either message.
  const byReason = { platform: new Map<string, KeptTail>(), other: new Map<string, KeptTail>() };
  const tailOf = (line: ErrorLine): Buffer => {
    const kept = line.errorInstanceId !== undefined ? byReason.platform : byReason.other;
    const key = line.reason ?? '';
    const found = kept.get(key);
    if (found !== undefined && sameTail(found.line, line)) return found.bytes;
    if (kept.size >= TAILS_MAX) kept.clear();
    const bytes = Buffer.from(tailText(line));
    kept.set(key, { line, bytes });
    return bytes;
  };

  const write = (level: 'info' | 'error', line: ErrorLine) => {
    if (!(level === 'info' ? info : error)) return;
    if (destination.writeTimed === undefined) return void destination.write(head(level) + Date.now() + middle(line) + tailText(line));
    destination.writeTimed(heads[level], Date.now(), middle(line), tailOf(line));
  };

  // A shared refusal on a fixed path repeats its whole line but the time: middle and tail kept as one.
  const repeats = new WeakMap<object, Map<string, { status: number; method: string; bytes: Buffer }>>();
  const repeatedOf = (key: object, url: string, status: number, method: string, line: () => ErrorLine): Buffer => {
    let byUrl = repeats.get(key);
    if (byUrl === undefined) repeats.set(key, (byUrl = new Map()));
    let kept = byUrl.get(url);
    if (kept === undefined || kept.status !== status || kept.method !== method) {
      // Bounded: a shared refusal is answered on few paths (a lane's own), but a path may carry the caller's input.
      if (byUrl.size >= MAX_URLS_PER_KEY) byUrl.clear();
      const made = line();
      byUrl.set(url, (kept = { status, method, bytes: Buffer.from(middle(made) + tailText(made)) }));
    }
    return kept.bytes;
  };
  write.repeated = (level: 'info' | 'error', key: object, url: string, status: number, method: string, line: () => ErrorLine) => {
    if (!(level === 'info' ? info : error)) return;
    if (destination.writeTimed === undefined) return write(level, line());
    destination.writeTimed(heads[level], Date.now(), '', repeatedOf(key, url, status, method, line));
  };
  return write;
}

/** A writer around a logger's own method (every line made whole, none kept): for listeners with few refusals. */
export function plainErrorLineWriter(write: (level: 'info' | 'error', line: ErrorLine) => void): ErrorLineWriter {
  return Object.assign(write, {
    repeated: (level: 'info' | 'error', _key: object, _url: string, _status: number, _method: string, line: () => ErrorLine) => write(level, line()),
  });
}
