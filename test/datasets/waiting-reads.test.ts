// Reads that wait for a table worker (docs/datasets.md, "Stalled and abandoned reads"): a read whose client stops
// taking its answer must not hold up every other worker read, and a read whose client left while it waited must
// not run at all. Both found by an outside try: one paused client blocked the other reads for minutes, and a
// hundred reads dropped in the queue each ran first (the next read waited 12 s).
import { describe, expect, it } from 'vitest';
import { MemoryBlobs } from '../../src/blobs/memory-blobs.js';
import type { DatasetSchema } from '../../src/services/datasets/model.js';
import { planColumns } from '../../src/services/datasets/table/read-table.js';
import { readTableBytes, workerStats } from '../../src/services/datasets/table/worker-pool.js';
import { all, stored } from './helpers.js';
import { workersSettled } from './worker-settled.js';

const SCHEMA: DatasetSchema = { fieldSchemaList: [{ name: 'x', type: 'INTEGER', nullable: true }] };
const columns = () => planColumns(SCHEMA, []) as Exclude<ReturnType<typeof planColumns>, { problem: string }>;
/** Enough rows for an ARROW answer of several chunks: a read holds its worker while a chunk waits to be taken. */
const rows = (n: number) => `x\n${Array.from({ length: n }, (_, i) => i).join('\n')}\n`;

/** Resolves with the promise's value, or rejects after `ms` (the read would otherwise wait for good). */
const within = <T>(ms: number, promise: Promise<T>) =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms))]);

describe('reads waiting for a table worker', () => {
  it('are served while other reads wait on clients that stopped taking their answers', async () => {
    const blobs = new MemoryBlobs();
    const big = await stored(blobs, { 'big.csv': rows(300_000) });
    const small = await stored(blobs, { 'small.csv': rows(3) });
    // Two readers take their first chunk and stop: as many as a pool of two workers has.
    const stalled = [readTableBytes('ARROW', big, blobs, columns(), SCHEMA), readTableBytes('ARROW', big, blobs, columns(), SCHEMA)];
    for (const read of stalled) await within(15_000, read.next());
    try {
      const answer = await within(15_000, all(readTableBytes('ARROW', small, blobs, columns(), SCHEMA)));
      expect(answer.length).toBeGreaterThan(0);
    } finally {
      for (const read of stalled) await read.return(undefined);
    }
    await workersSettled();
  }, 40_000);

  it('do not run when their client left before a worker was free', async () => {
    const blobs = new MemoryBlobs();
    const big = await stored(blobs, { 'big.csv': rows(300_000) });
    const holders = [readTableBytes('ARROW', big, blobs, columns(), SCHEMA), readTableBytes('ARROW', big, blobs, columns(), SCHEMA)];
    for (const read of holders) await within(15_000, read.next());
    const startedBefore = workerStats.started;
    const gone = new AbortController();
    // Twenty reads wait for a worker (or start on one left free), then their clients leave at once.
    const dropped = Array.from({ length: 20 }, () => readTableBytes('ARROW', big, blobs, columns(), SCHEMA, { signal: gone.signal }));
    const pending = dropped.map((read) => read.next());
    gone.abort();
    for (const read of holders) await read.return(undefined);
    await within(15_000, Promise.all(pending));
    for (const read of dropped) await read.return(undefined);
    // At most the reads that found a free worker at once ran (a pool holds two workers at most).
    expect(workerStats.started - startedBefore).toBeLessThanOrEqual(2);
    await workersSettled();
  }, 40_000);
});
