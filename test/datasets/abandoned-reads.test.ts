// Table reads a client gives up on, over a real socket (docs/datasets.md, "Table reads off the event loop"): a
// read dropped while its first 64 KiB are being made must give its worker back, or every later read that needs
// a worker waits for good (found by an outside try: a client that gave up after 5-20 ms did it every time).
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/index.js';
import { testStoreSpec } from '../helpers/store.js';
import { controlToken } from '../clients/conformance-helpers.js';
import { READ, WRITE } from './helpers.js';

const BIG = 'ri.foundry.main.dataset.big';
const SMALL = 'ri.foundry.main.dataset.small';
let emulator: Emulator;
let token: string;

beforeAll(async () => {
  const rows = Array.from({ length: 100_000 }, (_, i) => `${i},row${i}`).join('\\n');
  emulator = await startEmulator({
    seed: `
platform:
  users: [{ username: dev }]
  datasets:
    - { rid: ${BIG}, name: big, schema: { x: integer, y: string }, files: [{ path: big.csv, content: "x,y\\n${rows}\\n" }] }
    - { rid: ${SMALL}, name: small, schema: { x: integer, y: string }, files: [{ path: s.csv, content: "x,y\\n1,a\\n" }] }
`,
    store: testStoreSpec(),
  });
  token = await controlToken(emulator.url, 'dev', [READ, WRITE]);
});
afterAll(() => emulator?.close());

/** Asks for a table and drops the connection after `ms`, whatever has arrived. */
function abandoned(rid: string, query: string, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const req = http.get(`${emulator.url}/api/v2/datasets/${rid}/readTable?${query}`, { headers: { authorization: `Bearer ${token}` } }, (res) => res.resume());
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    setTimeout(() => req.destroy(), ms);
  });
}

describe('a table read its client gives up on', () => {
  it('gives its worker back, however early it is dropped', async () => {
    for (const ms of [1, 2, 3, 5, 8, 12, 16, 24, 32, 48]) {
      await abandoned(BIG, 'format=ARROW', ms);
      await abandoned(BIG, 'format=CSV&rowLimit=50000', ms);
    }
    // Each of these needs a worker: with one held by a dropped read they waited for good.
    for (const query of ['format=ARROW', 'format=CSV&rowLimit=1']) {
      const res = await fetch(`${emulator.url}/api/v2/datasets/${SMALL}/readTable?${query}`, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(10_000),
      });
      expect(res.status).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
  }, 60_000);
});
