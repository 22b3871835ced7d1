// A CSV record far longer than a piece (docs/datasets.md, "CSV"): read whole and exact, in about as many turns of
// the event loop as it has pieces of 64 KiB. Found by an outside try: a 10 MB record held the event loop for 7 s
// (csv-parse looked for a line break at each of its bytes, and nothing gave other requests a turn).
import { afterEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { datasetsApp, json, uploadFile } from './helpers.js';

let t: (TestApp & { auth: Record<string, string> }) | undefined;
afterEach(async () => {
  await t?.app.close();
  t = undefined;
});

/** Counts the turns of the event loop while `work` runs. */
async function turnsDuring<T>(work: () => Promise<T>): Promise<{ value: T; turns: number }> {
  let turns = 0;
  let running = true;
  const spin = () => {
    turns += 1;
    if (running) setImmediate(spin);
  };
  setImmediate(spin);
  try {
    return { value: await work(), turns };
  } finally {
    running = false;
  }
}

describe('a CSV record of several MB', () => {
  for (const lineEnd of ['\n', '\r\n']) {
    it(`is read whole, giving other work its turns (${JSON.stringify(lineEnd)} line ends)`, async () => {
      t = await datasetsApp();
      const rid = (await json(t, 'POST', '/api/v2/datasets', { name: 'long', parentFolderRid: 'ri.compass.main.folder.data' })).body.rid as string;
      const long = 'a'.repeat(4 * 1024 * 1024);
      const text = ['x,y', `1,${long}`, '2,b', ''].join(lineEnd);
      await uploadFile(t, rid, 'f.csv', text, '?transactionType=SNAPSHOT');
      await json(t, 'PUT', `/api/v2/datasets/${rid}/putSchema`, {
        schema: {
          fieldSchemaList: [
            { name: 'x', type: 'INTEGER', nullable: true },
            { name: 'y', type: 'STRING', nullable: true },
          ],
        },
      });
      const { value: res, turns } = await turnsDuring(() => t!.app.inject({ url: `/api/v2/datasets/${rid}/readTable?format=CSV`, headers: t!.auth }));
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(`x,y\n1,${long}\n2,b\n`);
      // 4 MiB is 64 pieces of 64 KiB; a read that held the loop gave a handful of turns.
      expect(turns).toBeGreaterThan(32);
    }, 60_000);
  }
});
