// The bench's subscribers read objectSetChanged messages by scanning their bytes, not by JSON.parse
// (bench/lib/subscriber-scan.mjs; docs/live-ontology.md, Bench). The scan must read every update and every send
// time a full parse reads: checked on the bytes the server really writes (added, updated and removed objects,
// names with and without a send time) and on hand-made messages with the awkward cases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { controlToken } from '../clients/conformance-helpers.js';
import { startEmulator, type Emulator } from '../../src/index.js';
import { testStoreSpec } from '../helpers/store.js';
// @ts-expect-error: plain JavaScript without types (a worker thread gets no TypeScript loader).
import { parseUpdates, scanStamps, scanUpdates } from '../../bench/lib/subscriber-scan.mjs';

const scan = scanUpdates as (data: Buffer) => number[] | undefined;
const parse = parseUpdates as (m: unknown) => number[];
const stamps = scanStamps as (data: Buffer) => number[] | undefined;

const RID = 'ri.ontology.main.ontology.scan';
const SEED = JSON.stringify({
  platform: {
    users: [{ username: 'dev' }],
    ontologies: [
      {
        api_name: 'scan',
        display_name: 'Scan',
        rid: RID,
        object_types: [
          {
            api_name: 'Item',
            primary_key: 'id',
            title_property: 'name',
            properties: { id: 'integer', name: 'string', note: 'string', stock: 'integer' },
          },
        ],
        objects: { Item: Array.from({ length: 6 }, (_, id) => ({ id, name: `item ${id}`, note: 'n', stock: id })) },
        action_types: [
          {
            api_name: 'edit',
            parameters: { item: { type: 'object', objectTypeApiName: 'Item' }, name: 'string', note: 'string', stock: 'integer' },
            edits: [{ modify: 'Item', primary_key: '$item', set: { name: '$name', note: '$note', stock: '$stock' } }],
          },
        ],
      },
    ],
  },
});

let emulator: Emulator;
let token: string;
beforeAll(async () => {
  emulator = await startEmulator({ seed: SEED, store: testStoreSpec() });
  token = await controlToken(emulator.url, 'dev', ['api:ontologies-read', 'api:ontologies-write']);
});
afterAll(() => emulator?.close());

async function apply(parameters: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${emulator.url}/api/v2/ontologies/scan/actions/edit/apply`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ parameters }),
  });
  expect(res.status).toBe(200);
}

describe('the bench subscribers scan', () => {
  it('reads what a full parse reads from the bytes the server writes', async () => {
    const ws = new WebSocket(`${emulator.url.replace('http', 'ws')}/api/v2/ontologySubscriptions/ontologies/${RID}/streamSubscriptions`, [`Bearer-${token}`]);
    const raw: Buffer[] = [];
    let answered!: () => void;
    const subscribed = new Promise<void>((resolve) => (answered = resolve));
    ws.on('message', (data: Buffer) => {
      raw.push(data);
      if ((JSON.parse(String(data)) as { type: string }).type === 'subscribeResponses') answered();
    });
    await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
    const objectSet = { type: 'filter', objectSet: { type: 'base', objectType: 'Item' }, where: { type: 'lt', field: 'stock', value: 10 } };
    ws.send(JSON.stringify({ id: 'm1', requests: [{ objectSet, propertySet: [], referenceSet: [] }] }));
    await subscribed;
    // Updated with a send time, updated without one, one leaving the set (removed) and one entering it (added);
    // a note that holds the searched-for text, escaped as JSON escapes it.
    const updates = () =>
      raw.map((b) => JSON.parse(String(b)) as { type: string; updates?: unknown[] }).flatMap((m) => (m.type === 'objectSetChanged' ? m.updates! : []));
    const states = () => updates().map((u) => (u as { state: string }).state);
    const until = async (done: () => boolean) => {
      for (const deadline = Date.now() + 5000; !done() && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 20));
    };
    await apply({ item: 1, name: 'e1@1764270000123.25', note: 'n', stock: 1 });
    await apply({ item: 2, name: 'plain "name":"x@1"', note: '{"type":"object","state":"ADDED"}', stock: 2 });
    await apply({ item: 3, name: 'e3@1764270000456', note: 'n', stock: 50 });
    // Its removal delivered before it re-enters: within one paced run the two edits would arrive as one update.
    await until(() => states().includes('REMOVED'));
    await apply({ item: 3, name: 'e4@1764270000789.5', note: 'ünïcødé "name":"y@2"', stock: 4 });
    await until(() => updates().length >= 4);
    ws.close();

    const changed = raw.filter((b) => (JSON.parse(String(b)) as { type: string }).type === 'objectSetChanged');
    expect(states()).toContain('REMOVED');
    expect(states()).toContain('ADDED_OR_UPDATED');
    const scanned = changed.flatMap((b) => scan(b)!);
    expect(scanned).toEqual(changed.flatMap((b) => parse(JSON.parse(String(b)))));
    expect(scanned.filter((t) => !Number.isNaN(t))).toEqual(expect.arrayContaining([1764270000123.25, 1764270000789.5]));
    // Anything else is left to the full parse.
    for (const b of raw.filter((b) => !changed.includes(b))) expect(scan(b)).toBeUndefined();
  });

  it('agrees with a full parse on hand-made messages; reads the server stamps from the head only', () => {
    const message = (updates: unknown[], extra: Record<string, unknown> = {}) =>
      Buffer.from(JSON.stringify({ type: 'objectSetChanged', id: 'f0e1d2c3-0000-4000-8000-000000000000', ...extra, updates }));
    const object = (fields: Record<string, unknown>) => ({ type: 'object', state: 'ADDED_OR_UPDATED', object: { $apiName: 'Item', ...fields } });
    const cases = [
      message([object({ id: 1, name: 'e0@12.5' }), object({ id: 2 }), object({ id: 3, name: 'no time' }), object({ id: 4, name: 'e9@7' })]),
      message([object({ id: 1, $title: 'e0@99', name: 'e0@99' }), { type: 'object', state: 'REMOVED', object: { id: 2, name: 'e1@3' } }]),
      message([object({ id: 1, note: '"name":"x@1"' }), object({ id: 2, name: 'a@1', note: 'b@2' })]),
    ];
    for (const c of cases) expect(scan(c)).toEqual(parse(JSON.parse(String(c))));
    expect(scan(cases[0]!)!.length).toBe(4);
    expect(scan(Buffer.from('{"type":"subscribeResponses","id":"m1","responses":[]}'))).toBeUndefined();
    // An objectSetChanged laid out otherwise (no update where the scan looks) is left to the full parse.
    expect(scan(Buffer.from('{"type":"objectSetChanged","id":"x","updates":[{"state":"REMOVED","type":"object","object":{}}]}'))).toBeUndefined();
    expect(stamps(message([object({ id: 1 })], { benchTimes: [1.5, 2, 3.25] }))).toEqual([1.5, 2, 3.25]);
    expect(stamps(message([object({ id: 1, note: '"benchTimes":[1]' })]))).toBeUndefined();
  });
});
