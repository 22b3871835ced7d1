// Conformance: the typed client's objectSet.subscribe (@osdk/client 2.22.0, its ObjectSetListenerWebsocket)
// against a live server (docs/live-ontology.md): objects added, updated and removed by actions and control-route
// edits arrive as the client expects; an object leaving or entering a filter arrives as REMOVED or
// ADDED_OR_UPDATED; two subscribers both hear; after unsubscribe nothing arrives; a bad token is refused.
import { describe, expect, it } from 'vitest';
import { createClient, type Client } from '@osdk/client';
import WebSocket from 'ws';
import { controlToken } from '../clients/conformance-helpers.js';
import { ACME_RID, ACME_SEED } from '../ontologies/fixture.js';
import { hireEmployee, promoteEmployee } from '../clients/osdk-typed-definitions.js';

// The seed's delete action, typed here only as far as the client needs (it reads the rest from the metadata).
const fireEmployee = { ...promoteEmployee, apiName: 'fireEmployee' } as unknown as typeof hireEmployee;
import { startEmulator, type Emulator } from '../../src/index.js';
import { testStoreSpec } from '../helpers/store.js';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { employees, record } from './helpers.js';

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({ seed: ACME_SEED, store: testStoreSpec() });
});
afterAll(() => emulator?.close());
beforeEach(() => emulator.reset());

const open: Array<{ unsubscribe(): Promise<void> }> = [];
async function client(): Promise<Client> {
  const token = await controlToken(emulator.url, 'dev', ['api:ontologies-read', 'api:ontologies-write']);
  return createClient(emulator.url, ACME_RID, async () => token);
}
function subscribe(set: unknown, opts?: Record<string, unknown>) {
  const rec = record(set, opts);
  open.push(rec);
  return rec;
}

describe('typed client: objectSet.subscribe', () => {
  it('added, updated and removed by actions arrive in commit order', async () => {
    const c = await client();
    const rec = subscribe(employees(c));
    await rec.ready;
    await c(hireEmployee).applyAction({ employeeId: 6, fullName: 'Fay Fox' });
    await c(promoteEmployee).applyAction({ employee: 6, newTitle: 'Engineer' });
    await c(fireEmployee).applyAction({ employee: 6 } as never);
    await rec.next((s) => s.state === 'REMOVED' && s.pk === 6);
    expect(rec.seen.map((s) => [s.state, s.pk, s.title ?? null])).toEqual([
      ['ADDED_OR_UPDATED', 6, null],
      ['ADDED_OR_UPDATED', 6, 'Engineer'],
      ['REMOVED', 6, 'Engineer'],
    ]);
    await rec.unsubscribe();
  });

  it('an object leaving a filter arrives as REMOVED, one entering it as ADDED_OR_UPDATED; others are not sent', async () => {
    const c = await client();
    const rec = subscribe(employees(c).where({ title: 'Engineer' }));
    await rec.ready;
    await c(promoteEmployee).applyAction({ employee: 2, newTitle: 'Director' });
    await c(promoteEmployee).applyAction({ employee: 1, newTitle: 'CEO' });
    await c(promoteEmployee).applyAction({ employee: 4, newTitle: 'Engineer' });
    await rec.next((s) => s.pk === 4);
    expect(rec.seen.map((s) => [s.state, s.pk])).toEqual([
      ['REMOVED', 2],
      ['ADDED_OR_UPDATED', 4],
    ]);
    await rec.unsubscribe();
  });

  it('two subscribers on two connections both hear a control-route edit; after unsubscribe one hears nothing more', async () => {
    const [a, b] = [await client(), await client()];
    const first = subscribe(employees(a));
    const second = subscribe(employees(b).where({ salary: { $gte: 100000 } }));
    await Promise.all([first.ready, second.ready]);
    await emulator.putObject('acme', 'Employee', 7, { fullName: 'Gus Green', salary: 150000 });
    await Promise.all([first.next((s) => s.pk === 7), second.next((s) => s.pk === 7)]);
    await second.unsubscribe();
    const before = second.seen.length;
    await emulator.putObject('acme', 'Employee', 8, { fullName: 'Hal Hill', salary: 160000 });
    await first.next((s) => s.pk === 8);
    await emulator.deleteObject('acme', 'Employee', 8);
    await first.next((s) => s.pk === 8 && s.state === 'REMOVED');
    expect(second.seen.length).toBe(before);
    await first.unsubscribe();
  });

  it('a reset brings back the seed: what it removes and restores arrives', async () => {
    const c = await client();
    await c(fireEmployee).applyAction({ employee: 5 } as never);
    await c(hireEmployee).applyAction({ employeeId: 9, fullName: 'Ivy Ito' });
    const rec = subscribe(employees(c));
    await rec.ready;
    await emulator.reset();
    await rec.next((s) => s.pk === 9 && s.state === 'REMOVED');
    await rec.next((s) => s.pk === 5 && s.state === 'ADDED_OR_UPDATED');
    await rec.unsubscribe();
  });

  // The 50 ms delivery target is the subscriptions bench's (bench/scenarios/subscriptions.ts, a p50 against a
  // baseline on a quiet run): a timed test on a shared machine would measure its load. Here each of 20 edits is
  // delivered, in order, and none waits anywhere near the idle close.
  it('delivers every edit of a series, in commit order, each within a second', async () => {
    const c = await client();
    const rec = subscribe(employees(c));
    await rec.ready;
    const latencies: number[] = [];
    for (let i = 0; i < 20; i++) {
      const from = rec.seen.length;
      // From before the request: an upper bound of the delay from the commit to the listener.
      const started = performance.now();
      await c(promoteEmployee).applyAction({ employee: 3, newTitle: `T${i}` });
      const s = await rec.next((x) => x.title === `T${i}`, from);
      latencies.push(s.at - started);
    }
    const titles = rec.seen.map((x) => x.title).filter((t) => typeof t === 'string' && /^T\d+$/.test(t));
    expect(titles).toEqual(Array.from({ length: 20 }, (_, i) => `T${i}`));
    expect(Math.max(...latencies)).toBeLessThan(1_000);
    await rec.unsubscribe();
  });

  it('a bad or missing token: the handshake is a 401 with no upgrade', async () => {
    const handshake = (protocols: string[]) =>
      new Promise<number>((resolve, reject) => {
        const ws = new WebSocket(`${emulator.url.replace('http', 'ws')}/api/v2/ontologySubscriptions/ontologies/${ACME_RID}/streamSubscriptions`, protocols);
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.on('open', () => reject(new Error('upgraded without a good token')));
        ws.on('error', () => undefined);
      });
    expect(await handshake(['Bearer-nope'])).toBe(401);
    expect(await handshake([])).toBe(401);
    const noScope = await controlToken(emulator.url, 'dev', ['api:admin-read']);
    expect(await handshake([`Bearer-${noScope}`])).toBe(403);
  });
});
