// The Coalescer of the PostgreSQL store (one statement for many concurrent calls), on its own: it needs no
// database, so it runs in both passes.
import { describe, expect, it } from 'vitest';
import { Coalescer } from '../../src/store/postgres/coalesce.js';

/** A coalescer whose statements the test finishes by hand, recording every batch it was given. */
function manual(maxInFlight?: number, maxBatch?: number, failsQueued?: (err: unknown) => boolean) {
  const batches: number[][] = [];
  const pending: Array<{ finish: () => void; fail: (err: Error) => void }> = [];
  const coalescer = new Coalescer<number, string>(
    (inputs) =>
      new Promise((resolve, reject) => {
        batches.push(inputs);
        pending.push({ finish: () => resolve(inputs.map((n) => `answer ${n}`)), fail: reject });
      }),
    { maxInFlight, maxBatch, failsQueued },
  );
  const settle = () => new Promise((r) => setImmediate(r));
  return { coalescer, batches, pending, settle };
}

describe('Coalescer', () => {
  it('sends a lone call at once, and the calls made meanwhile together once it is back, each with its own answer', async () => {
    const { coalescer, batches, pending, settle } = manual();
    const first = coalescer.call(1);
    expect(batches).toEqual([[1]]); // no timer: sent in the same tick
    const rest = [2, 3, 4].map((n) => coalescer.call(n));
    await settle();
    expect(batches).toEqual([[1]]); // one statement in flight by default
    pending.shift()!.finish();
    expect(await first).toBe('answer 1');
    await settle();
    expect(batches).toEqual([[1], [2, 3, 4]]);
    pending.shift()!.finish();
    expect(await Promise.all(rest)).toEqual(['answer 2', 'answer 3', 'answer 4']);
  });

  it('keeps batches within their bound and as many statements out as allowed', async () => {
    const { coalescer, batches, pending, settle } = manual(2, 3);
    const calls = Array.from({ length: 9 }, (_, i) => coalescer.call(i));
    expect(batches).toEqual([[0], [1]]);
    while (pending.length > 0) {
      pending.shift()!.finish();
      await settle();
    }
    expect(batches).toEqual([[0], [1], [2, 3, 4], [5, 6, 7], [8]]);
    expect(await Promise.all(calls)).toEqual(Array.from({ length: 9 }, (_, i) => `answer ${i}`));
  });

  it('a failed statement fails its own calls only, and the queue goes on', async () => {
    const { coalescer, pending, settle } = manual();
    const first = coalescer.call(1);
    const second = [coalescer.call(2), coalescer.call(3)];
    pending.shift()!.finish();
    await first;
    await settle();
    pending.shift()!.fail(new Error('database gone'));
    for (const call of second) await expect(call).rejects.toThrow('database gone');
    const later = coalescer.call(4);
    pending.shift()!.finish();
    expect(await later).toBe('answer 4');
  });

  it('a failure that means the database is gone fails the queued calls at once, not each in its turn', async () => {
    const gone = new Error('unavailable');
    const { coalescer, batches, pending, settle } = manual(1, 2, (err) => err === gone);
    const calls = Array.from({ length: 5 }, (_, i) => coalescer.call(i).catch((err: Error) => err.message));
    pending.shift()!.fail(gone);
    expect(await Promise.all(calls)).toEqual(Array.from({ length: 5 }, () => 'unavailable'));
    await settle();
    expect(batches).toEqual([[0]]);
    const after = coalescer.call(9);
    pending.shift()!.finish();
    expect(await after).toBe('answer 9');
  });
});
