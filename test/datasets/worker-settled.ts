// What the table-worker suites wait for after a read: no read running and no file stream open in the pool.
import { expect } from 'vitest';
import { workerStats } from '../../src/services/datasets/table/worker-pool.js';

/** Waits (bounded, 5 s) until the pool says no read runs and no file stream is open, then checks it. */
export async function workersSettled(): Promise<void> {
  for (let i = 0; i < 200 && (workerStats.running > 0 || workerStats.openStreams > 0); i++) await new Promise((r) => setTimeout(r, 25));
  expect(workerStats).toMatchObject({ running: 0, openStreams: 0 });
}
