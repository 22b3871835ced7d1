// Measures a round trip (a job, an OAuth flow) the two ways the issue asks: one at a time for latency, then from
// concurrent callers for throughput, with each named process's CPU per round trip.
import { closedLoop, sampleSequentially, stats, type LatencyStats } from './latency.js';
import { cpuMicros } from './proc.js';
import type { ScenarioResult } from './report.js';

export interface RoundTripOptions {
  /** What one round trip is called in the table: `job`, `flow`. */
  noun: string;
  samples: number;
  callers: number;
  seconds: number;
  task: () => Promise<void>;
  /** Processes whose CPU per round trip is reported, by label. */
  cpuOf: Record<string, number>;
}

export async function measureRoundTrips(result: ScenarioResult, o: RoundTripOptions): Promise<LatencyStats> {
  const sequential = await sampleSequentially(o.samples, o.task);
  const before = Object.fromEntries(Object.entries(o.cpuOf).map(([label, pid]) => [label, cpuMicros(pid)]));
  const loop = await closedLoop(o.callers, o.seconds, o.task);
  const concurrent = stats(loop.times);
  result.metrics.push(
    { name: `one ${o.noun} at a time, p50`, value: sequential.p50Ms, unit: 'ms' },
    { name: `one ${o.noun} at a time, p99`, value: sequential.p99Ms, unit: 'ms' },
    { name: `${o.callers} callers, ${o.noun}s per second`, value: loop.completed / loop.seconds, unit: `${o.noun}s/s` },
    { name: `${o.callers} callers, p50`, value: concurrent.p50Ms, unit: 'ms' },
    { name: `${o.callers} callers, p99`, value: concurrent.p99Ms, unit: 'ms' },
  );
  for (const [label, pid] of Object.entries(o.cpuOf)) {
    result.metrics.push({ name: `${label} CPU per ${o.noun}`, value: (cpuMicros(pid) - before[label]!) / loop.completed, unit: 'us' });
  }
  return sequential;
}
