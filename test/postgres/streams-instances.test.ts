// Streams on several instances of one PostgreSQL schema (docs/streams.md, "Offsets"): a record published on
// one instance is read on another, and publishers on both get dense, distinct offsets.
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/index.js';
import { freshSchemaUrl } from '../helpers/store.js';
import { controlToken } from '../clients/conformance-helpers.js';
import { baseUrl } from './helpers.js';

const RID = 'ri.foundry.main.dataset.shared-stream';
const SEED = `
platform:
  users: [{ username: dev }]
  streams: [{ rid: ${RID}, name: shared, schema: { n: integer } }]
`;
let running: Emulator[] = [];
afterEach(async () => {
  await Promise.all(running.map((e) => e.close()));
  running = [];
});

describe('streams on several PostgreSQL instances', () => {
  it('read on one what was published on the other, at dense offsets', async () => {
    const store = freshSchemaUrl(baseUrl());
    const a = await startEmulator({ seed: SEED, store });
    running.push(a);
    const b = await startEmulator({ seed: SEED, store });
    running.push(b);
    const token = await controlToken(a.url, 'dev', ['api:streams-read', 'api:streams-write']);
    const call = (e: Emulator, path: string, init: RequestInit = {}) =>
      fetch(`${e.url}/api/v2/highScale/streams/datasets/${RID}/streams/master${path}`, {
        ...init,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      });
    expect((await call(a, '/publishRecord', { method: 'POST', body: JSON.stringify({ record: { n: 0 } }) })).status).toBe(204);
    expect(await (await call(b, '/getRecords?partitionId=0&limit=10')).json()).toEqual([{ offset: 0, value: { n: 0 } }]);
    // Both publish at once: 20 batches of 5 each, interleaved.
    const batches = Array.from({ length: 20 }, (_, i) =>
      call(i % 2 ? a : b, '/publishRecords', {
        method: 'POST',
        body: JSON.stringify({ records: Array.from({ length: 5 }, (_, j) => ({ n: 1 + i * 5 + j })) }),
      }),
    );
    expect((await Promise.all(batches)).map((r) => r.status)).toEqual(Array(20).fill(204));
    expect(await (await call(a, '/getEndOffsets')).json()).toEqual({ '0': 101 });
    const records = (await (await call(b, '/getRecords?partitionId=0&limit=1000')).json()) as Array<{ offset: number; value: { n: number } }>;
    expect(records.map((r) => r.offset)).toEqual(Array.from({ length: 101 }, (_, i) => i));
    expect(new Set(records.map((r) => r.value.n)).size).toBe(101);
    // Each batch's records stay together, in order.
    for (let i = 1; i < 101; i += 5) expect(records.slice(i, i + 5).map((r) => r.value.n - records[i]!.value.n)).toEqual([0, 1, 2, 3, 4]);
    // A reset on B is seen by A.
    const reset = await fetch(`${b.url}/api/v2/streams/datasets/${RID}/streams/master/reset`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(reset.status).toBe(200);
    expect(await (await call(a, '/getEndOffsets')).json()).toEqual({ '0': 0 });
  });
});
