// The job repository's atomic steps: a contract every store meets. It runs on the memory store (the reference
// behaviour) and, in the PostgreSQL pass, on PostgreSQL (test/helpers/store.ts).
import { afterEach, describe, expect, it } from 'vitest';
import type { ComputeModuleJobRepo, JobRecord, Store } from '../../src/store/store.js';
import { TEST_STORE, openTestStore } from '../helpers/store.js';

const job = (jobId: string, runtimeId = 'rt'): JobRecord => ({
  jobId,
  runtimeId,
  deployedAppRid: 'ri.app',
  branch: 'master',
  queryType: 'q',
  query: {},
  state: 'queued',
  handOuts: 0,
  submittedAt: 0,
});

let store: Store | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

async function filled(...ids: string[]): Promise<ComputeModuleJobRepo> {
  store = await openTestStore();
  const repo = store.computeModuleJobs;
  for (const id of ids) await repo.insert(job(id));
  return repo;
}

describe(`compute-module jobs (${TEST_STORE ? 'postgres' : 'memory'} store)`, () => {
  it('claims in submission order, per runtime', async () => {
    const repo = await filled('a', 'b');
    await repo.insert(job('other', 'rt-2'));
    expect((await repo.claimNext('rt', 1))?.jobId).toBe('a');
    expect(await repo.claimNext('rt', 2)).toMatchObject({ jobId: 'b', state: 'inProgress', handOuts: 1, startedAt: 2 });
    expect(await repo.claimNext('rt', 3)).toBeUndefined();
    expect((await repo.claimNext('rt-2', 3))?.jobId).toBe('other');
  });

  it('unclaim puts the job back at its old place, uncounted, only for the matching hand-out', async () => {
    const repo = await filled('a', 'b');
    const a = (await repo.claimNext('rt', 1))!;
    expect(await repo.unclaim('a', 2)).toBe(false);
    expect(await repo.unclaim('a', a.handOuts)).toBe(true);
    expect(await repo.unclaim('a', a.handOuts)).toBe(false); // already queued
    expect(await repo.byId('a')).toMatchObject({ state: 'queued', handOuts: 0 });
    expect((await repo.claimNext('rt', 2))?.jobId).toBe('a');
  });

  it('requeueJob puts one handed-out job back, counted, only for the matching hand-out, and fails it at the cap', async () => {
    const repo = await filled('a', 'b');
    const a = (await repo.claimNext('rt', 1))!;
    await repo.claimNext('rt', 1);
    expect(await repo.requeueJob('a', 2, 3, 'cut', 2)).toEqual({ requeued: [], failed: [] });
    const back = await repo.requeueJob('a', a.handOuts, 3, 'cut', 2);
    expect(back.requeued.map((j) => [j.jobId, j.state, j.handOuts])).toEqual([['a', 'queued', 1]]);
    expect(await repo.requeueJob('a', a.handOuts, 3, 'cut', 2)).toEqual({ requeued: [], failed: [] }); // already back
    expect(await repo.byId('b')).toMatchObject({ state: 'inProgress' }); // the other stays
    expect(await repo.claimNext('rt', 3)).toMatchObject({ jobId: 'a', handOuts: 2 });
    const failed = await repo.requeueJob('a', 2, 2, 'cut twice', 4);
    expect(failed.failed.map((j) => [j.jobId, j.state, j.failure])).toEqual([['a', 'failed', 'cut twice']]);
  });

  it('completes or cancels only queued or running jobs', async () => {
    const repo = await filled('a', 'b');
    await repo.claimNext('rt', 1);
    expect(await repo.complete('a', { body: Buffer.from('x') }, 5)).toMatchObject({ state: 'succeeded', finishedAt: 5 });
    expect(await repo.complete('a', { body: Buffer.from('y') }, 6)).toBeUndefined();
    expect(await repo.cancel('a', 6)).toBeUndefined();
    expect(await repo.cancel('b', 7)).toMatchObject({ state: 'canceled' });
    expect(await repo.claimNext('rt', 8)).toBeUndefined(); // a canceled job leaves the queue
    expect((await repo.byId('a'))?.result?.body.toString()).toBe('x');
  });

  it('requeues running jobs in order and fails those handed out the maximum number of times', async () => {
    const repo = await filled('a', 'b', 'c');
    await repo.claimNext('rt', 1);
    await repo.claimNext('rt', 1);
    let outcome = await repo.requeueInProgress('rt', 2, 'too many', 2);
    expect(outcome.requeued.map((j) => j.jobId)).toEqual(['a', 'b']);
    expect((await repo.claimNext('rt', 3))?.jobId).toBe('a'); // ahead of c again
    outcome = await repo.requeueInProgress('rt', 2, 'too many', 4);
    expect(outcome).toMatchObject({ requeued: [], failed: [{ jobId: 'a', state: 'failed', failure: 'too many' }] });
  });

  it('prunes the oldest finished jobs first and never a queued or running one', async () => {
    const repo = await filled('a', 'b', 'c', 'd');
    await repo.cancel('c', 1);
    await repo.cancel('a', 2);
    await repo.claimNext('rt', 3); // b is running
    expect(await repo.pruneFinished(1)).toBe(1);
    expect(await repo.byId('c')).toBeUndefined();
    expect(await repo.pruneFinished(0)).toBe(1);
    expect(await repo.byId('a')).toBeUndefined();
    expect((await repo.byId('b'))?.state).toBe('inProgress');
    expect((await repo.byId('d'))?.state).toBe('queued');
    expect(await repo.countFinished()).toBe(0);
  });

  it("insertIfRoom refuses past the runtime's queued count; running jobs and other runtimes do not count", async () => {
    const repo = await filled('a', 'b');
    expect(await repo.insertIfRoom(job('c'), 2)).toBe(false);
    expect(await repo.byId('c')).toBeUndefined();
    expect(await repo.insertIfRoom(job('other', 'rt-2'), 2)).toBe(true);
    await repo.claimNext('rt', 1);
    expect(await repo.insertIfRoom(job('c'), 2)).toBe(true);
    expect(await repo.byId('c')).toMatchObject({ state: 'queued', handOuts: 0 });
  });

  it('fail ends a queued or running job with its reason, once', async () => {
    const repo = await filled('a', 'b');
    await repo.claimNext('rt', 1);
    expect(await repo.fail('a', 'broken', 2)).toMatchObject({ state: 'failed', failure: 'broken', finishedAt: 2 });
    expect(await repo.fail('b', 'broken', 3)).toMatchObject({ state: 'failed' });
    expect(await repo.fail('a', 'again', 4)).toBeUndefined();
    expect(await repo.claimNext('rt', 5)).toBeUndefined(); // b left the queue
  });

  it('requeueHandedOutBefore takes back only jobs handed out by the given time', async () => {
    const repo = await filled('a', 'b', 'c');
    await repo.claimNext('rt', 10);
    await repo.claimNext('rt', 20);
    const outcome = await repo.requeueHandedOutBefore('rt', 10, 3, 'gone', 30);
    expect(outcome.requeued.map((j) => j.jobId)).toEqual(['a']);
    expect(await repo.byId('b')).toMatchObject({ state: 'inProgress', startedAt: 20 });
    expect(await repo.claimNext('rt', 40)).toMatchObject({ jobId: 'a', handOuts: 2 }); // ahead of c again
    await repo.claimNext('rt', 41); // c
    const again = await repo.requeueHandedOutBefore('rt', 100, 2, 'gone', 50);
    expect(again.failed.map((j) => j.jobId)).toEqual(['a']);
    expect(again.requeued.map((j) => j.jobId).sort()).toEqual(['b', 'c']);
  });

  it('prunes the oldest finished jobs until their results fit in the byte bound', async () => {
    const repo = await filled('a', 'b', 'c');
    for (const id of ['a', 'b', 'c']) await repo.complete(id, { body: Buffer.alloc(10) }, 1);
    expect(await repo.retainedResultBytes()).toBe(30);
    expect(await repo.pruneFinished(100, 20)).toBe(1);
    expect(await repo.byId('a')).toBeUndefined();
    expect(await repo.retainedResultBytes()).toBe(20);
    expect(await repo.pruneFinished(100)).toBe(0); // no byte bound
    expect(await repo.pruneFinished(100, 0)).toBe(2);
    expect(await repo.retainedResultBytes()).toBe(0);
  });
});
