// A table read that fails after its answer began (docs/datasets.md, "A read that fails late"): an ARROW answer
// ends with a cut message, so that an Arrow reader, streaming or not, fails instead of taking the rows before it
// for the whole table.
import { afterEach, describe, expect, it } from 'vitest';
import { RecordBatchReader, tableFromIPC } from 'apache-arrow';
import { datasetsApp, uploadFile, type DatasetsTestApp } from './helpers.js';

const RID = 'ri.foundry.main.dataset.late';
let t: DatasetsTestApp | undefined;
afterEach(async () => {
  await t?.app.close();
  t = undefined;
});

/** 100,000 good rows (well past the 64 KiB held before the status goes out), then one that is not a number. */
const lateBadFile = () => {
  const rows = Array.from({ length: 100_000 }, (_, i) => `s${i},${i}`);
  return `sensor,value\n${rows.join('\n')}\nlast,not-a-number\n`;
};

describe('a table read that fails late', () => {
  it('ends an ARROW answer so that apache-arrow fails, streaming or whole, and the service goes on serving', async () => {
    t = await datasetsApp({ datasets: [{ rid: RID, name: 'late', schema: { sensor: 'string', value: 'long' } }] });
    expect((await uploadFile(t, RID, 'late.csv', lateBadFile(), '?transactionType=SNAPSHOT')).status).toBe(200);
    const base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const url = `${base}/api/v2/datasets/${RID}/readTable?format=ARROW`;

    const streamed = await fetch(url, { headers: t.auth });
    expect(streamed.status).toBe(200);
    let rows = 0; // the good rows before the bad one may all arrive: what matters is that the read fails
    const failure = await (async () => {
      for await (const batch of await RecordBatchReader.from(streamed.body! as unknown as AsyncIterable<Uint8Array>)) rows += batch.numRows;
    })().then(
      () => 'read to the end',
      (err: Error) => err.message,
    );
    expect(failure).toBe('Expected to read 1048576 metadata bytes, but only read 8.');
    expect(rows).toBeGreaterThan(0);

    const whole = Buffer.from(await (await fetch(url, { headers: t.auth })).arrayBuffer());
    expect(() => tableFromIPC(whole)).toThrow('Expected to read 1048576 metadata bytes, but only read 8.');

    const csv = await fetch(`${base}/api/v2/datasets/${RID}/readTable?format=CSV&rowLimit=3`, { headers: t.auth });
    expect([csv.status, await csv.text()]).toEqual([200, 'sensor,value\ns0,0\ns1,1\ns2,2\n']);
  });
});
