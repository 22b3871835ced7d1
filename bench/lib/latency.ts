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
  return { samples: times.length, p50Ms: percentile(times, 50), p99Ms: percentile(times, 99), maxMs: Math.max(...times) };
}

/** Runs `task` from `callers` concurrent loops for `seconds`; returns completed count and each one's latency. */
export async function closedLoop(callers: number, seconds: number, task: () => Promise<void>): Promise<{ completed: number; seconds: number; times: number[] }> {
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
