// The event stream over a real socket: journal entries and coalesced change events as they happen, replay
// from Last-Event-ID, a bound on open streams, and cleanup when a reader goes away.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/index.js';
import { topicsOf } from '../../src/services/control/routes/events.js';
import { PathPolicies } from '../../src/http/path-policy.js';
import { SERVICES } from '../../src/services/index.js';

const policies = new PathPolicies(SERVICES.flatMap((s) => s.policy ?? []));

let emulator: Emulator;

beforeAll(async () => {
  emulator = await startEmulator({ seed: { platform: { users: [{ username: 'alice', display_name: 'Alice' }] } } });
});
afterAll(() => emulator?.close());

interface SseEvent {
  event: string;
  id?: string;
  data: unknown;
}

/** Opens the stream and parses its events as they arrive. */
async function openStream(headers: Record<string, string> = {}) {
  const abort = new AbortController();
  const res = await fetch(`${emulator.url}/_emulate/platform/events`, { headers, signal: abort.signal });
  const events: SseEvent[] = [];
  const waiters: Array<() => void> = [];
  let raw = '';
  const pump = (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        raw += decoder.decode(chunk, { stream: true });
        let cut: number;
        while ((cut = raw.indexOf('\n\n')) >= 0) {
          const block = raw.slice(0, cut);
          raw = raw.slice(cut + 2);
          const fields = Object.fromEntries(
            block
              .split('\n')
              .filter((l) => !l.startsWith(':') && l.includes(': '))
              .map((l) => [l.slice(0, l.indexOf(': ')), l.slice(l.indexOf(': ') + 2)]),
          );
          if (fields.event) events.push({ event: fields.event, id: fields.id, data: JSON.parse(fields.data ?? 'null') });
          waiters.splice(0).forEach((w) => w());
        }
      }
    } catch {
      // aborted
    }
  })();
  return {
    res,
    events,
    /** Resolves with the first event that satisfies `test` (no timer: each arriving event is checked). */
    async next(test: (e: SseEvent) => boolean): Promise<SseEvent> {
      for (;;) {
        const hit = events.find(test);
        if (hit) return hit;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    async close() {
      abort.abort();
      await pump;
    },
  };
}

describe('event stream', () => {
  it('sends journal entries and a change event when a user is deactivated', async () => {
    const stream = await openStream();
    expect(stream.res.status).toBe(200);
    expect(stream.res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const res = await fetch(`${emulator.url}/_emulate/platform/users/alice/deactivate`, { method: 'POST' });
    expect(res.status).toBe(200);
    const entry = await stream.next((e) => e.event === 'journal');
    expect(entry.data).toMatchObject({ method: 'POST', path: '/_emulate/platform/users/alice/deactivate', status: 200 });
    expect(entry.id).toBe(String((entry.data as { id: number }).id));
    const change = await stream.next((e) => e.event === 'change');
    expect(change.data).toEqual({ topics: ['users', 'tokens'] });
    await stream.close();
  });

  it('coalesces a burst of changes into few change events', async () => {
    const stream = await openStream();
    await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(`${emulator.url}/_emulate/platform/tokens`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"username":"admin"}' }),
      ),
    );
    await stream.next((e) => e.event === 'journal' && stream.events.filter((x) => x.event === 'journal').length === 20);
    await stream.next((e) => e.event === 'change');
    // Twenty writes in one burst: far fewer than twenty change events (one per 20 ms window at most).
    expect(stream.events.filter((e) => e.event === 'change').length).toBeLessThan(20);
    await stream.close();
  });

  it('says everything changed after an in-process reset', async () => {
    const stream = await openStream();
    await emulator.reset();
    const change = await stream.next((e) => e.event === 'change' && (e.data as { topics: string[] }).topics.includes('all'));
    expect(change.data).toEqual({ topics: ['all'] });
    await stream.close();
  });

  it('replays what a reconnecting reader missed, from Last-Event-ID', async () => {
    await fetch(`${emulator.url}/_emulate/platform/users/alice/activate`, { method: 'POST' });
    const latest = (await (await fetch(`${emulator.url}/_emulate/platform/journal?limit=1`)).json()).entries[0];
    await fetch(`${emulator.url}/_emulate/platform/users/alice/deactivate`, { method: 'POST' });
    await fetch(`${emulator.url}/_emulate/platform/users/alice/activate`, { method: 'POST' });
    const stream = await openStream({ 'last-event-id': String(latest.id) });
    await stream.next((e) => e.event === 'change');
    const replayed = stream.events.filter((e) => e.event === 'journal').map((e) => (e.data as { path: string }).path);
    expect(replayed).toEqual(['/_emulate/platform/users/alice/deactivate', '/_emulate/platform/users/alice/activate']);
    await stream.close();
  });

  it('caps open streams, and frees a place when a reader goes away', async () => {
    const streams = await Promise.all(Array.from({ length: 32 }, () => openStream()));
    const refused = await fetch(`${emulator.url}/_emulate/platform/events`);
    expect(refused.status).toBe(409);
    expect((await refused.json()).errorName).toBe('TooManyEventStreams');
    // One reader goes away; once the server has seen its socket close, its place is free again. A refused
    // attempt holds no place, so retrying until one is accepted is safe.
    await streams.pop()!.close();
    let again: Awaited<ReturnType<typeof openStream>> | undefined;
    for (let attempt = 0; attempt < 200 && !again; attempt++) {
      const s = await openStream();
      if (s.res.status === 200) again = s;
      else {
        await s.close();
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }
    expect(again?.res.status).toBe(200);
    expect((await fetch(`${emulator.url}/_emulate/platform/events`)).status).toBe(409);
    await Promise.all([...streams, again!].map((s) => s.close()));
  });
});

describe('shutdown', () => {
  it('ends open streams when the emulator closes, so that closing does not wait for them', async () => {
    const own = await startEmulator();
    const res = await fetch(`${own.url}/_emulate/platform/events`);
    const reader = (res.body as unknown as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    await reader.next(); // the stream is open
    const started = Date.now();
    await own.close();
    // The stream ends (done), rather than hanging until the client gives up.
    let done = false;
    while (!done) done = (await reader.next()).done === true;
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('topicsOf', () => {
  it('names topics for writes and none for reads', () => {
    expect(topicsOf(policies, { method: 'GET', path: '/api/v2/admin/users/getCurrent' })).toEqual([]);
    expect(topicsOf(policies, { method: 'POST', path: '/idp/api/oauth2/token' })).toEqual(['tokens']);
    expect(topicsOf(policies, { method: 'POST', path: '/analytics-backend-multiplexer/api/x' })).toEqual(['runtimes']);
    expect(topicsOf(policies, { method: 'POST', path: '/_emulate/platform/reset' })).toEqual(['all']);
    expect(topicsOf(policies, { method: 'PUT', path: '/_emulate/platform/oauth-clients/web' })).toEqual(['clients']);
    expect(topicsOf(policies, { method: 'PUT', path: '/_emulate/platform/ontologies/demo/queries/greet' })).toEqual(['ontologies']);
  });
});
