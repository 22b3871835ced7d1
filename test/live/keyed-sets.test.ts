// Many filtered sets over one type (docs/live-ontology.md, "Which sets an edit may move"): a run visits only the
// sets an edited object was in or now passes the equality clause of, so an object moving between categories,
// created or deleted must still leave and enter exactly the right sets. After a series of random edits, each
// subscription's members as rebuilt from its messages must equal the set loaded afresh.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { controlToken } from '../clients/conformance-helpers.js';
import { startEmulator, type Emulator } from '../../src/index.js';
import { testStoreSpec } from '../helpers/store.js';

const RID = 'ri.ontology.main.ontology.keyed-sets';
const CATEGORIES = ['a', 'b', 'c'];
const OBJECTS = 30;
const SEED = {
  platform: {
    users: [{ username: 'dev' }],
    ontologies: [
      {
        api_name: 'keyed',
        display_name: 'Keyed sets',
        rid: RID,
        object_types: [{ api_name: 'Item', primary_key: 'id', title_property: 'id', properties: { id: 'integer', category: 'string', stock: 'integer' } }],
        objects: { Item: Array.from({ length: OBJECTS }, (_, id) => ({ id, category: CATEGORIES[id % 3], stock: id % 5 })) },
        action_types: [
          {
            api_name: 'move',
            parameters: { item: { type: 'object', objectTypeApiName: 'Item' }, category: 'string', stock: 'integer' },
            edits: [{ modify: 'Item', primary_key: '$item', set: { category: '$category', stock: '$stock' } }],
          },
          {
            api_name: 'make',
            parameters: { id: 'integer', category: 'string', stock: 'integer' },
            edits: [{ create: 'Item', values: { id: '$id', category: '$category', stock: '$stock' } }],
          },
          { api_name: 'drop', parameters: { item: { type: 'object', objectTypeApiName: 'Item' } }, edits: [{ delete: 'Item', primary_key: '$item' }] },
        ],
      },
    ],
  },
};

let emulator: Emulator;
let token: string;
beforeAll(async () => {
  emulator = await startEmulator({ seed: SEED, store: testStoreSpec() });
  token = await controlToken(emulator.url, 'dev', ['api:ontologies-read', 'api:ontologies-write']);
});
afterAll(() => emulator?.close());

const base = { type: 'base', objectType: 'Item' };
/** Sets the index serves (an eq, alone or in an and), and sets it cannot (no eq: every edit is tested). */
const SETS = [
  ...CATEGORIES.map((c) => ({ type: 'filter', objectSet: base, where: { type: 'eq', field: 'category', value: c } })),
  ...CATEGORIES.map((c) => ({
    type: 'filter',
    objectSet: base,
    where: {
      type: 'and',
      value: [
        { type: 'gte', field: 'stock', value: 2 },
        { type: 'eq', field: 'category', value: c },
      ],
    },
  })),
  {
    type: 'filter',
    objectSet: { type: 'filter', objectSet: base, where: { type: 'eq', field: 'category', value: 'a' } },
    where: { type: 'lt', field: 'stock', value: 3 },
  },
  { type: 'filter', objectSet: base, where: { type: 'gte', field: 'stock', value: 3 } },
];

async function act(action: string, parameters: Record<string, unknown>) {
  const res = await fetch(`${emulator.url}/api/v2/ontologies/keyed/actions/${action}/apply`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ parameters }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { validation: { result: string } };
}

async function loadKeys(objectSet: unknown): Promise<number[]> {
  const res = await fetch(`${emulator.url}/api/v2/ontologies/keyed/objectSets/loadObjects`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ objectSet, pageSize: 1000, select: ['id'] }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Array<{ id: number }> }).data.map((o) => o.id).sort((x, y) => x - y);
}

describe('many filtered sets over one type', () => {
  it('each subscription follows its set exactly through moves, creates and deletes', async () => {
    const ws = new WebSocket(`${emulator.url.replace('http', 'ws')}/api/v2/ontologySubscriptions/ontologies/${RID}/streamSubscriptions`, [`Bearer-${token}`]);
    await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
    const members = new Map<string, Set<number>>();
    const idOf: string[] = [];
    let answered!: () => void;
    const subscribed = new Promise<void>((resolve) => (answered = resolve));
    let updates = 0;
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as Record<string, unknown>;
      if (m.type === 'subscribeResponses') {
        for (const r of m.responses as Array<{ type: string; id: string }>) {
          expect(r.type).toBe('success');
          idOf.push(r.id);
          members.set(r.id, new Set());
        }
        answered();
      } else if (m.type === 'objectSetChanged') {
        const set = members.get(m.id as string)!;
        for (const u of m.updates as Array<{ state: string; object: { id: number } }>) {
          updates++;
          if (u.state === 'REMOVED') set.delete(u.object.id);
          else set.add(u.object.id);
        }
      }
    });
    ws.send(JSON.stringify({ id: 's', requests: SETS.map((objectSet) => ({ objectSet, propertySet: [], referenceSet: [] })) }));
    await subscribed;
    // The starting members are what a load returns: the subscription reports changes from here on.
    for (const [i, set] of SETS.entries()) for (const id of await loadKeys(set)) members.get(idOf[i]!)!.add(id);

    // A fixed pseudo-random series (the same on every run), applied concurrently in small groups so that runs
    // take several edits of the same object together.
    let seed = 7;
    const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    let next = OBJECTS;
    const alive = new Set(Array.from({ length: OBJECTS }, (_, i) => i));
    for (let round = 0; round < 20; round++) {
      const group: Array<Promise<unknown>> = [];
      for (let k = 0; k < 5; k++) {
        const roll = random(10);
        const category = CATEGORIES[random(3)]!;
        const stock = random(5);
        if (roll === 0) {
          alive.add(next);
          group.push(act('make', { id: next++, category, stock }));
        } else if (roll === 1 && alive.size > 5) {
          const item = [...alive][random(alive.size)]!;
          alive.delete(item);
          group.push(act('drop', { item }));
        } else {
          group.push(act('move', { item: [...alive][random(alive.size)]!, category, stock }));
        }
      }
      await Promise.all(group);
    }
    // Settled: every set loaded afresh equals what its messages built (bounded wait for the last run).
    const expected = await Promise.all(SETS.map(loadKeys));
    const actual = () => idOf.map((id) => [...members.get(id)!].sort((x, y) => x - y));
    for (let i = 0; i < 50 && JSON.stringify(actual()) !== JSON.stringify(expected); i++) await new Promise((r) => setTimeout(r, 50));
    expect(actual()).toEqual(expected);
    expect(updates).toBeGreaterThan(0);
    ws.close();
  });
});
