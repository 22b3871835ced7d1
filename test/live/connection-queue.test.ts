// A subscriber connection's bounded queue (src/services/ontologies/subscriptions/connection.ts): a reader that
// stops reading never makes the sender wait; past the bound its queued changes are dropped for one
// refreshObjectSet per subscription, and what comes after flows again once the reader catches up.
import { describe, expect, it } from 'vitest';
import { SubscriberConnection, type Transport } from '../../src/services/ontologies/subscriptions/connection.js';
import { SetWatch } from '../../src/services/ontologies/subscriptions/watch.js';

function stalledTransport() {
  const pending: Array<() => void> = [];
  const sent: string[] = [];
  const transport: Transport = {
    send: (text, done) => {
      sent.push(String(text));
      pending.push(done);
    },
    close: () => undefined,
  };
  return { transport, sent, release: () => pending.splice(0).forEach((d) => d()) };
}

describe('subscriber connection queue', () => {
  it('overflows into refreshObjectSet, never blocking, and drains afterwards', () => {
    const { transport, sent, release } = stalledTransport();
    const host = { replace: async () => undefined, detach: () => undefined };
    const c = new SubscriberConnection('ri.o', 'dev', 'test', transport, host, { maxQueued: 5, highWaterBytes: 10, messagesPerSecond: 10, maxRequests: 10 });
    const watch = new SetWatch('k', { type: 'base', objectType: 'Employee' }, 'Employee');
    c.subscriptions.set('sub-1', {
      id: 'sub-1',
      connection: c,
      watch,
      request: { objectSet: {}, propertySet: [], referenceSet: [], loadRids: true },
      canonical: '',
    });
    const started = performance.now();
    for (let i = 0; i < 1000; i++) c.enqueue(JSON.stringify({ type: 'objectSetChanged', id: 'sub-1', n: i }));
    expect(performance.now() - started).toBeLessThan(200);
    // One went out at once (under the high-water mark); the rest queued, overflowed and were replaced.
    expect(sent.length).toBe(1);
    expect(c.queued).toBeLessThanOrEqual(5);
    expect(c.refreshesSent).toBeGreaterThan(0);
    for (let i = 0; i < 20 && c.queued > 0; i++) release();
    release();
    const after = sent.slice(1).map((s) => JSON.parse(s) as { type: string; n?: number });
    expect(after.some((m) => m.type === 'refreshObjectSet')).toBe(true);
    // What is delivered after the refresh is the newest, in order.
    const numbers = after.filter((m) => m.n !== undefined).map((m) => m.n!);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(numbers.at(-1)).toBe(999);
  });
});
