// One load run: autocannon against one server, with the server's CPU read from /proc before and after.
import autocannon, { type AutocannonRequest } from 'autocannon';
import { cpuMicros } from './proc.js';
import type { ServerProcess } from './processes.js';

export interface LoadSpec {
  /** Requests cycled through by every connection (prebuilt, so the client does little per request). */
  requests: AutocannonRequest[];
  connections?: number;
  pipelining?: number;
  durationS?: number;
  /** Stop after this many requests instead of after `durationS`. */
  amount?: number;
}

export interface LoadRun {
  requests: number;
  seconds: number;
  cpuMicros: number;
  /** Latency of 2xx answers, in ms (autocannon records only those). */
  p50Ms: number;
  p99Ms: number;
  statuses: Record<string, number>;
  errors: number;
}

export async function runLoad(server: ServerProcess, spec: LoadSpec): Promise<LoadRun> {
  const cpuBefore = cpuMicros(server.pid);
  const started = process.hrtime.bigint();
  const result = await autocannon({
    url: server.url,
    connections: spec.connections ?? 10,
    pipelining: spec.pipelining ?? 1,
    ...(spec.amount !== undefined ? { amount: spec.amount } : { duration: spec.durationS ?? 3 }),
    timeout: 30,
    requests: spec.requests,
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = cpuMicros(server.pid) - cpuBefore;
  const statuses: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats)) statuses[code] = count;
  const requests = Object.values(statuses).reduce((a, b) => a + b, 0);
  return { requests, seconds, cpuMicros: cpu, p50Ms: result.latency.p50, p99Ms: result.latency.p99, statuses, errors: result.errors + result.timeouts };
}

/** Sums of several rounds against one server. */
export interface LoadTotals {
  subject: string;
  rounds: number;
  requests: number;
  rps: number;
  /** Medians of the rounds' percentiles. */
  p50Ms: number;
  p99Ms: number;
  cpuUsPerRequest: number;
  statuses: Record<string, number>;
  errors: number;
}

export function totals(subject: string, runs: LoadRun[]): LoadTotals {
  const requests = sum(runs.map((r) => r.requests));
  const statuses: Record<string, number> = {};
  for (const run of runs) for (const [code, n] of Object.entries(run.statuses)) statuses[code] = (statuses[code] ?? 0) + n;
  return {
    subject,
    rounds: runs.length,
    requests,
    rps: requests / sum(runs.map((r) => r.seconds)),
    p50Ms: median(runs.map((r) => r.p50Ms)),
    p99Ms: median(runs.map((r) => r.p99Ms)),
    cpuUsPerRequest: requests > 0 ? sum(runs.map((r) => r.cpuMicros)) / requests : NaN,
    statuses,
    errors: sum(runs.map((r) => r.errors)),
  };
}

export const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);

export function median(xs: number[]): number {
  return percentile(xs, 50);
}

export function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))]!;
}

export function count5xx(statuses: Record<string, number>): number {
  return sum(
    Object.entries(statuses)
      .filter(([code]) => code.startsWith('5'))
      .map(([, n]) => n),
  );
}
