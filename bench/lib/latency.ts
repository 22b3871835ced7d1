// Latency measured one request (or one flow) at a time with a high-resolution clock, for the scenarios whose
// targets are in milliseconds (autocannon's histogram counts whole milliseconds).
import { percentile } from './load.js';

export interface LatencyStats {
  samples: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export async function timeOnce(task: () => Promise<void>): Promise<number> {
  const started = process.hrtime.bigint();
  await task();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

export async function sampleSequentially(samples: number, task: () => Promise<void>): Promise<LatencyStats> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) times.push(await timeOnce(task));
  return stats(times);
}

export function stats(times: number[]): LatencyStats {
  // The max from a sorted copy, not Math.max(...times): spreading ~120k arguments overflows the stack, and a
  // closed loop run for longer (BENCH_DURATION_S=30) records more samples than that.
  const sorted = [...times].sort((a, b) => a - b);
  const maxMs = sorted.length > 0 ? sorted[sorted.length - 1]! : -Infinity;
  return { samples: times.length, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), maxMs };
}

/** Runs `task` from `callers` concurrent loops for `seconds`; returns completed count and each one's latency. */
export async function closedLoop(
  callers: number,
  seconds: number,
  task: () => Promise<void>,
): Promise<{ completed: number; seconds: number; times: number[] }> {
  const times: number[] = [];
  const started = process.hrtime.bigint();
  const deadline = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (Date.now() < deadline) times.push(await timeOnce(task));
    }),
  );
  return { completed: times.length, seconds: Number(process.hrtime.bigint() - started) / 1e9, times };
}
