// The Parquet warm-up (docs/datasets.md, "Parquet warm-up"): a commit that adds a Parquet file gets parquet-wasm
// compiled and instantiated in a table worker, which then runs its read path over files of its own (the decode
// functions compiled, the hot ones optimized); the first read then hands no module to a worker. The seed, reads
// and a commit without a Parquet file start nothing; a close or reset stops a warm-up under way, and a later
// commit may start it again.
// No timing is asserted: the waits below only give the background work its turn, bounded.
import { afterEach, describe, expect, it } from 'vitest';
import { tableFromIPC } from 'apache-arrow';
import type { TestApp } from '../helpers/app.js';
import { ParquetWarmup } from '../../src/services/datasets/parquet-warmup.js';
import { warmParquet, warmupStats } from '../../src/services/datasets/table/parquet-warmup.js';
import { workerStats } from '../../src/services/datasets/table/worker-pool.js';
import { resetWarmRead, warmRead } from '../../src/services/datasets/table/warm-read.js';
import { datasetsApp, json, parquetBytes, uploadFile } from './helpers.js';

const RID = 'ri.foundry.main.dataset.warm';
const seed = {
  datasets: [{ rid: RID, name: 'warm', schema: { sensor: 'string', value: 'double', count: 'long', ok: 'boolean', day: 'date', at: 'timestamp' } }],
};

let t: (TestApp & { auth: Record<string, string> }) | undefined;
afterEach(async () => {
  await t?.app.close();
  t = undefined;
});

/** Waits (bounded, 10 s) until `done` holds. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !done(); i++) await new Promise((r) => setTimeout(r, 25));
}

const parquetFile = () =>
  parquetBytes([{ sensor: 'a', value: 1.5, count: 7n, ok: true, day: new Date('2026-01-02'), at: new Date('2026-01-01T00:00:01Z') }], 'TIMESTAMP_MICROS');

// In this order: the module state is the process's (one warm-up per process), as it is in a server.
describe('the Parquet warm-up', () => {
  it('stops when cancelled, and may start again afterwards', async () => {
    const before = { ...warmupStats };
    const controller = new AbortController();
    const warming = warmParquet(controller.signal);
    // The compile has not finished yet (it reads the file first): the cancel lands before any worker is taken.
    controller.abort();
    expect(await warming).toBe('cancelled');
    expect(warmupStats.cancelled).toBe(before.cancelled + 1);
    expect(workerStats.running).toBe(0);

    // An app's side: a commit's warm-up cancelled by the app's close or reset ends the same way.
    const warmup = new ParquetWarmup();
    warmup.committed([{ transactionRid: 't', path: 'x.parquet', blobId: 'b', size: 1, updatedTime: '' }]);
    warmup.cancel();
    expect(await warmup.last).toBe('cancelled');
    expect(warmup.wanted()).toBe(true);
  });

  it('is not started by the seed, by reads, nor by a commit without a Parquet file', async () => {
    t = await datasetsApp(seed);
    const started = warmupStats.started;
    expect((await json(t, 'GET', `/api/v2/datasets/${RID}`)).status).toBe(200);
    expect((await t.app.inject({ url: `/api/v2/datasets/${RID}/readTable?format=CSV`, headers: t.auth })).statusCode).toBeLessThan(500);
    expect((await json(t, 'POST', '/api/v2/datasets', { name: 'more', parentFolderRid: 'ri.compass.main.folder.x' })).status).toBe(200);
    expect(
      (await uploadFile(t, RID, 'a.csv', 'sensor,value,count,ok,day,at\na,1,1,true,2026-01-01,2026-01-01T00:00:00Z\n', '?transactionType=SNAPSHOT')).status,
    ).toBe(200);
    await new Promise((r) => setTimeout(r, 50));
    expect(warmupStats.started).toBe(started);
  });

  it('starts at a Parquet commit, warms the decode path in a worker, and the first read hands no module', async () => {
    t = await datasetsApp(seed);
    const before = { ...warmupStats };
    const handed = workerStats.moduleHanded;
    expect((await uploadFile(t, RID, 'p.parquet', await parquetFile(), '?transactionType=SNAPSHOT')).status).toBe(200);
    // Started after the commit, never waited on (its count moves once the table module has loaded); the worker's own
    // reads (tiny files, then the larger one read several times) ran to their end.
    await until(() => warmupStats.decoded > before.decoded || warmupStats.decodeFailed > before.decodeFailed || warmupStats.failed > before.failed);
    expect(warmupStats).toMatchObject({
      started: before.started + 1,
      warmed: before.warmed + 1,
      failed: before.failed,
      decoded: before.decoded + 1,
      decodeFailed: before.decodeFailed,
    });

    const res = await t.app.inject({ url: `/api/v2/datasets/${RID}/readTable?format=ARROW`, headers: t.auth });
    expect(res.statusCode).toBe(200);
    expect(
      tableFromIPC(res.rawPayload)
        .toArray()
        .map((r) => r.toJSON().sensor),
    ).toEqual(['a']);
    // The read found a worker holding the instance: it handed no module.
    expect(workerStats.moduleHanded).toBe(handed);

    // Once per process: another dataset, another Parquet commit start nothing.
    expect((await json(t, 'POST', '/api/v2/datasets', { name: 'more', parentFolderRid: 'ri.compass.main.folder.x' })).status).toBe(200);
    expect((await uploadFile(t, RID, 'q.parquet', await parquetFile(), '?transactionType=SNAPSHOT')).status).toBe(200);
    await t.app.inject({ url: `/api/v2/datasets/${RID}/readTable?format=ARROW`, headers: t.auth });
    expect(warmupStats.started).toBe(before.started + 1);
  });

  it("runs a worker's warm reads (both formats, then the larger file) without an error, and resumes where told to stop", async () => {
    resetWarmRead();
    await expect(warmRead()).resolves.toBe(true);
    resetWarmRead();
    let asked = 0;
    expect(await warmRead(() => ++asked > 1)).toBe(false);
    expect(asked).toBe(2);
    // The next call goes on from there, to the end.
    await expect(warmRead()).resolves.toBe(true);
  });
});
