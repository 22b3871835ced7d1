// How delivery runs are paced (src/services/ontologies/subscriptions/pacing.ts, docs/live-ontology.md "Pacing"):
// the gap after a run follows its length within [min, max]; a change after a quiet spell runs at once; changes
// during a run wait for its end. Then the hub under the longest gap, on the store this pass tests: a stream of
// edits arrives in fewer, fuller messages, each object's changes in commit order, none lost, and a subscriber
// that stops reading still gets refreshObjectSet while the others get everything. Time is a fake clock here.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { gapAfter, RunPacer, type PacingOptions } from '../../src/services/ontologies/subscriptions/pacing.js';
import { SubscriptionHub } from '../../src/services/ontologies/subscriptions/hub.js';
import { SubscriberConnection, type ConnectionLimits, type Transport } from '../../src/services/ontologies/subscriptions/connection.js';
import { changedObject, ontologyChanged } from '../../src/services/ontologies/subscriptions/change-feed.js';
import { openTestStore } from '../helpers/store.js';
import { applyTestSeed, validateTestSeed } from '../helpers/seed.js';
import { systemClock } from '../../src/clock.js';
import type { Store } from '../../src/store/store.js';

const PACING: PacingOptions = { minGapMs: 10, maxGapMs: 40, share: 0.5 };

describe('run pacing', () => {
  it('spaces runs by twice the last run, within the bounds', () => {
    expect(gapAfter(1, PACING)).toBe(10);
    expect(gapAfter(12, PACING)).toBe(24);
    expect(gapAfter(300, PACING)).toBe(40);
  });

  it('runs at once after a quiet spell, holds changes during a run until its end, then waits the gap it earned', () => {
    vi.useFakeTimers();
    try {
      let now = 1000;
      const starts: number[] = [];
      const pacer = new RunPacer(
        PACING,
        () => starts.push(now),
        () => now,
      );
      pacer.request();
      expect(starts).toEqual([1000]);
      // Changes during the run (it takes 15 ms): one run after its end, 30 ms after the first began.
      now = 1005;
      pacer.request();
      pacer.request();
      now = 1015;
      pacer.ended();
      expect(pacer.currentGapMs).toBe(30);
      expect(starts).toHaveLength(1);
      now = 1030;
      vi.advanceTimersByTime(15);
      expect(starts).toEqual([1000, 1030]);
      // A short run; the next change comes after a quiet spell and runs at once.
      now = 1031;
      pacer.ended();
      expect(pacer.currentGapMs).toBe(10);
      now = 2000;
      pacer.request();
      expect(starts).toEqual([1000, 1030, 2000]);
      pacer.ended();
      pacer.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});

const RID = 'ri.ontology.main.ontology.pacing';
const OBJECTS = 20;
const SEED = {
  platform: {
    users: [{ username: 'dev' }],
    ontologies: [
      {
        api_name: 'pacing',
        display_name: 'Pacing',
        rid: RID,
        object_types: [{ api_name: 'Item', primary_key: 'id', title_property: 'id', properties: { id: 'integer', category: 'string', n: 'integer' } }],
        objects: { Item: Array.from({ length: OBJECTS }, (_, id) => ({ id, category: id % 2 ? 'a' : 'b', n: 0 })) },
      },
    ],
  },
};
const SET_A = { type: 'filter', objectSet: { type: 'base', objectType: 'Item' }, where: { type: 'eq', field: 'category', value: 'a' } };

type Update = { state: string; object: { id: number; n: number; category: string } };
type Message = { type: string; updates?: Update[] };

/** A transport that hands each message back at once, or holds them all (a reader that stopped) until released. */
function transport(stalled: boolean) {
  const sent: Message[] = [];
  const held: Array<() => void> = [];
  const out: Transport = {
    send: (message, done) => {
      sent.push(JSON.parse(typeof message === 'string' ? message : Buffer.concat(message).toString('utf8')) as Message);
      if (stalled) held.push(done);
      else done();
    },
    close: () => undefined,
  };
  return { out, sent, release: () => held.splice(0).forEach((d) => d()) };
}

let store: Store;
let hub: SubscriptionHub;
beforeAll(async () => {
  store = await openTestStore();
  await applyTestSeed(validateTestSeed(SEED), store, systemClock);
  // Every run is followed by the longest gap: the pacing a saturated server gets.
  hub = new SubscriptionHub(store, { minGapMs: 40, maxGapMs: 40, share: 0.5 });
});
afterAll(async () => {
  hub?.close();
  await store?.close();
});

async function subscriber(stalled: boolean, limits?: ConnectionLimits) {
  const t = transport(stalled);
  const c = new SubscriberConnection(RID, 'dev', 'test', t.out, hub, limits);
  hub.attach(c);
  await c.receive(JSON.stringify({ id: 'm1', requests: [{ objectSet: SET_A, propertySet: [], referenceSet: [] }] }));
  return { ...t, connection: c };
}

describe('the hub under the longest gap', () => {
  it('delivers a stream of edits in fewer messages, in commit order, none lost; a stalled reader gets refreshObjectSet', async () => {
    const reader = await subscriber(false);
    const stalled = await subscriber(true, { maxQueued: 2, highWaterBytes: 1, messagesPerSecond: 10, maxRequests: 10 });
    expect(reader.sent[0]).toMatchObject({ type: 'subscribeResponses' });
    const expected = new Map<number, { n: number; category: string }>();
    for (let id = 0; id < OBJECTS; id++) expected.set(id, { n: 0, category: id % 2 ? 'a' : 'b' });
    const seen = new Map<number, number[]>();
    const members = new Map<number, number>();
    let read = 0;
    const readAll = () => {
      for (const m of reader.sent.slice(read)) {
        for (const u of m.updates ?? []) {
          seen.set(u.object.id, [...(seen.get(u.object.id) ?? []), u.object.n]);
          if (u.state === 'REMOVED') members.delete(u.object.id);
          else members.set(u.object.id, u.object.n);
        }
      }
      read = reader.sent.length;
    };
    const expectedMembers = () => new Map([...expected].filter(([, v]) => v.category === 'a').map(([id, v]) => [id, v.n]));
    let edits = 0;
    // Waves of edits, each waited for, so that the stalled reader's queue overflows across several runs.
    for (let wave = 0; wave < 6; wave++) {
      for (let i = 0; i < 25; i++) {
        const id = (edits * 7) % OBJECTS;
        const category = edits % 5 === 0 ? (expected.get(id)!.category === 'a' ? 'b' : 'a') : expected.get(id)!.category;
        edits++;
        const outcome = await store.ontologyObjects.applyEdits(RID, [{ kind: 'modify', objectType: 'Item', primaryKey: id, set: { n: edits, category } }]);
        expect(outcome.ok).toBe(true);
        expected.set(id, { n: edits, category });
        ontologyChanged(store, RID, changedObject('Item', String(id)));
      }
      for (let i = 0; i < 100; i++) {
        readAll();
        if (JSON.stringify([...members].sort()) === JSON.stringify([...expectedMembers()].sort())) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      expect([...members].sort()).toEqual([...expectedMembers()].sort());
    }
    const changedMessages = reader.sent.filter((m) => m.type === 'objectSetChanged').length;
    expect(changedMessages).toBeGreaterThanOrEqual(6);
    expect(changedMessages).toBeLessThan(edits / 2);
    // Each object's values arrive in the order they were committed.
    for (const ns of seen.values()) expect(ns).toEqual([...ns].sort((a, b) => a - b));
    expect(reader.connection.refreshesSent).toBe(0);
    // The reader that stopped: one message went out, the rest overflowed into a refresh of its set.
    expect(stalled.connection.refreshesSent).toBeGreaterThan(0);
    stalled.release();
    stalled.release();
    expect(stalled.sent.some((m) => m.type === 'refreshObjectSet')).toBe(true);
  });
});
