// Requests whose client left before the answer was complete are journaled, once (docs/contracts.md §7): a client
// that gives up before any byte (499), a reader that drops a download half way (the status being sent), an
// abandoned long poll, an event stream its client closes, a request a fast lane held; never a module's idle poll,
// a control read or a websocket's session. On real sockets: inject() has no client that can leave.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startEmulator, type Emulator } from '../../src/index.js';
import type { JournalEntry } from '../../src/http/journal/index.js';
import { buildTestApp, mintToken } from '../helpers/app.js';
import { testStoreSpec } from '../helpers/store.js';
import { controlToken } from '../clients/conformance-helpers.js';
import { ADDER, MUX, RUNTIMES, seed as moduleSeed } from '../compute-modules/helpers.js';
import { ACME_RID, ACME_SEED } from '../ontologies/fixture.js';

const GET_CURRENT = '/api/v2/admin/users/getCurrent';
const FILE_RID = 'ri.foundry.main.dataset.big-file';
// More than loopback socket buffers hold: a reader that stops reading holds the answer open.
const FILE_BYTES = 24 * 1024 * 1024;
const CONTENT = `/api/v2/datasets/${FILE_RID}/files/big.csv/content`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends a request and drops it after `ms` (fetch's AbortController: the socket goes); answers the status if the
 * answer had begun by then.
 */
async function abandon(url: string, init: RequestInit, ms: number): Promise<number | undefined> {
  const controller = new AbortController();
  let status: number | undefined;
  const pending = fetch(url, { ...init, signal: controller.signal })
    .then((res) => {
      status = res.status;
      return res.arrayBuffer();
    })
    .catch(() => undefined);
  await sleep(ms);
  controller.abort();
  await pending;
  return status;
}

/** The journal's entries for `path`, read over HTTP (so the JSON shape is the one clients get). */
async function journalOf(base: string, path: string): Promise<JournalEntry[]> {
  const res = await fetch(`${base}/_emulate/platform/journal?path=${encodeURIComponent(path)}`);
  return ((await res.json()) as { entries: JournalEntry[] }).entries.filter((e) => e.path.split('?')[0] === path);
}

/** Waits for `count` entries (the server sees a client leave a moment after it left), then answers them. */
async function entriesOnce(base: string, path: string, count: number): Promise<JournalEntry[]> {
  for (let waited = 0; waited < 5000; waited += 20) {
    const entries = await journalOf(base, path);
    if (entries.length >= count) return entries;
    await sleep(20);
  }
  return journalOf(base, path);
}

describe('a client that leaves, on the public port', () => {
  let emulator: Emulator;
  let token: string;
  beforeAll(async () => {
    const modules = moduleSeed().platform;
    emulator = await startEmulator({
      seed: {
        platform: {
          ...modules,
          users: [{ username: 'dev' }],
          datasets: [{ rid: FILE_RID, name: 'big-file', files: [{ path: 'big.csv', content: 'x'.repeat(FILE_BYTES) }] }],
        },
      },
      store: testStoreSpec(),
    });
    token = await controlToken(emulator.url, 'dev', ['api:admin-read', 'api:datasets-read']);
  });
  afterAll(() => emulator?.close());

  it('before any byte was sent: 499, clientLeft, the time it waited, the path redacted; once', async () => {
    const armed = await fetch(`${emulator.url}/_emulate/platform/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ method: 'GET', path: GET_CURRENT, delayMs: 800 }),
    });
    expect(armed.status).toBe(200);
    const started = Date.now();
    expect(await abandon(`${emulator.url}${GET_CURRENT}?code=s3cret-code-value`, { headers: { authorization: `Bearer ${token}` } }, 150)).toBeUndefined();

    const [entry, ...more] = await entriesOnce(emulator.url, GET_CURRENT, 1);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ method: 'GET', path: `${GET_CURRENT}?code=[redacted]`, status: 499, clientLeft: true });
    expect(entry!.reason).toContain('before any answer was sent');
    expect(entry!.durationMs).toBeGreaterThanOrEqual(100);
    expect(entry!.durationMs).toBeLessThan(800);

    // The delay ends and the route answers no one: still the one entry.
    await sleep(Math.max(0, started + 1100 - Date.now()));
    const after = await journalOf(emulator.url, GET_CURRENT);
    expect(after.map((e) => e.id)).toEqual([entry!.id]);
    expect(JSON.stringify(after)).not.toContain('s3cret-code-value');
    expect(JSON.stringify(after)).not.toContain(token);
  });

  it('an abandoned long poll (a synchronous execute) names who asked; an idle module poll and a control read stay out', async () => {
    const poll = `${RUNTIMES}/rt-2/job`;
    expect(await abandon(`${emulator.url}${poll}`, { headers: { 'module-auth-token': 'module-token-2' } }, 150)).toBeUndefined();
    expect(await abandon(`${emulator.url}/_emulate/platform/events`, {}, 150)).toBe(200);
    const execute = `${MUX}/compute-modules/jobs/execute`;
    const body = { deployedAppRid: ADDER, deployedAppBranch: 'master', queryType: 'add', query: { a: 2, b: 3 } };
    const sent = { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) };
    expect(await abandon(`${emulator.url}${execute}`, sent, 150)).toBeUndefined();

    const [entry, ...more] = await entriesOnce(emulator.url, execute, 1);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ method: 'POST', status: 499, clientLeft: true, username: 'dev' });
    expect(await journalOf(emulator.url, poll)).toEqual([]);
    expect(await journalOf(emulator.url, '/_emulate/platform/events')).toEqual([]);
  });

  it('a reader that leaves mid-download: the status being sent, once; a download read to its end: one plain entry', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.get(`${emulator.url}${CONTENT}`, { headers: { authorization: `Bearer ${token}` } }, (res) => {
        res.once('data', () => {
          res.pause();
          req.destroy();
          resolve(res.statusCode!);
        });
      });
      req.on('error', (err) => (err.message === 'socket hang up' ? undefined : reject(err)));
    });
    expect(status).toBe(200);
    const [left, ...more] = await entriesOnce(emulator.url, CONTENT, 1);
    expect(more).toEqual([]);
    expect(left).toMatchObject({ method: 'GET', status: 200, clientLeft: true, username: 'dev' });
    expect(left!.reason).toContain('while the answer was being sent');

    const full = await fetch(`${emulator.url}${CONTENT}`, { headers: { authorization: `Bearer ${token}` } });
    expect((await full.arrayBuffer()).byteLength).toBe(FILE_BYTES);
    await sleep(100);
    const [done, ...before] = await journalOf(emulator.url, CONTENT);
    expect(before.map((e) => e.id)).toEqual([left!.id]);
    expect(done).toMatchObject({ status: 200, username: 'dev' });
    expect(done).not.toHaveProperty('clientLeft');
    expect(done).not.toHaveProperty('reason');

    // The filter finds the left one, whose status (200) alone would not tell it from the other.
    const filtered = async (value: string) => {
      const res = await fetch(`${emulator.url}/_emulate/platform/journal?clientLeft=${value}&path=${encodeURIComponent(CONTENT)}`);
      return ((await res.json()) as { entries: JournalEntry[] }).entries.map((e) => e.id);
    };
    expect(await filtered('true')).toEqual([left!.id]);
    expect(await filtered('false')).toEqual([done!.id]);
  }, 30_000);
});

describe('a stream its client ends', () => {
  it("a subscription's event stream is journaled once, when its client closes it; a websocket session is not", async () => {
    const emulator = await startEmulator({ seed: ACME_SEED, store: testStoreSpec() });
    try {
      const token = await controlToken(emulator.url, 'dev', ['api:ontologies-read']);
      const base = `/api/v2/ontologySubscriptions/ontologies/${ACME_RID}`;
      const ws = new WebSocket(`${emulator.url.replace('http', 'ws')}${base}/streamSubscriptions`, [`Bearer-${token}`]);
      await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
      ws.close();
      await new Promise((resolve) => ws.once('close', resolve));

      const sse = `${base}/sseSubscriptions`;
      const init = {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ id: 'a', requests: [] }),
      };
      expect(await abandon(`${emulator.url}${sse}`, init, 150)).toBe(200);
      const [entry, ...more] = await entriesOnce(emulator.url, sse, 1);
      expect(more).toEqual([]);
      expect(entry).toMatchObject({ method: 'POST', status: 200, clientLeft: true, username: 'dev' });
      expect(entry!.reason).toContain('an event stream ends this way');
      // An upgraded connection has no answer to cut: its session's end is no abandoned request.
      expect(await journalOf(emulator.url, `${base}/streamSubscriptions`)).toEqual([]);
    } finally {
      await emulator.close();
    }
  });
});

describe('a client that leaves while a fast lane answers it', () => {
  it('is journaled as left, whether the lane answers or hands it to the route; an answer read in full is journaled once as usual', async () => {
    const t = await buildTestApp({ seed: { platform: { users: [{ username: 'dev' }] } } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const lookup = t.store.tokens.findAccessWithPrincipal.bind(t.store.tokens);
    // A slow token lookup (a busy PostgreSQL): the client gives up while the lane waits for it.
    let slow = true;
    t.store.tokens.findAccessWithPrincipal = async (presented) => {
      if (slow) await sleep(300);
      return lookup(presented);
    };
    const reader = await mintToken(t.app, 'dev', ['api:admin-read']);
    const noScope = await mintToken(t.app, 'dev', ['api:datasets-read']);

    expect(await abandon(`${base}${GET_CURRENT}`, { headers: { authorization: `Bearer ${reader}` } }, 50)).toBeUndefined();
    const [answered] = await entriesOnce(base, GET_CURRENT, 1);
    expect(answered).toMatchObject({ status: 499, clientLeft: true });
    // Without the route's scope, the lane hands the request to the route, whose client is gone already.
    expect(await abandon(`${base}${GET_CURRENT}`, { headers: { authorization: `Bearer ${noScope}` } }, 50)).toBeUndefined();
    const [handedBack] = await entriesOnce(base, GET_CURRENT, 2);
    expect(handedBack).toMatchObject({ status: 499, clientLeft: true });

    slow = false;
    expect((await fetch(`${base}${GET_CURRENT}`, { headers: { authorization: `Bearer ${reader}` } })).status).toBe(200);
    await sleep(100);
    const entries = await journalOf(base, GET_CURRENT);
    expect(entries.map((e) => [e.status, e.clientLeft])).toEqual([
      [200, undefined],
      [499, true],
      [499, true],
    ]);
  });
});
