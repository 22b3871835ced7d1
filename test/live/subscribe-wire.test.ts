// The subscription protocol on the wire (docs/live-ontology.md), driven with a plain websocket and with the
// server-sent-event form: the subprotocol is echoed, a malformed message and an unknown object type are error
// responses on a connection that stays open, a flood is answered with errors, duplicate requests share an id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { controlToken } from '../clients/conformance-helpers.js';
import { ACME_RID, ACME_SEED } from '../ontologies/fixture.js';
import { startEmulator, type Emulator } from '../../src/index.js';
import { testStoreSpec } from '../helpers/store.js';

let emulator: Emulator;
let token: string;
beforeAll(async () => {
  emulator = await startEmulator({ seed: ACME_SEED, store: testStoreSpec() });
  token = await controlToken(emulator.url, 'dev', ['api:ontologies-read', 'api:ontologies-write']);
});
afterAll(() => emulator?.close());

const path = `/api/v2/ontologySubscriptions/ontologies/${ACME_RID}`;
type Message = Record<string, unknown> & { type: string };

async function socket() {
  const ws = new WebSocket(`${emulator.url.replace('http', 'ws')}${path}/streamSubscriptions`, [`Bearer-${token}`]);
  const inbox: Message[] = [];
  const waiters = new Set<() => void>();
  ws.on('message', (data) => {
    inbox.push(JSON.parse(String(data)) as Message);
    for (const w of [...waiters]) w();
  });
  await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
  const next = (match: (m: Message) => boolean, ms = 3000) =>
    new Promise<Message>((resolve, reject) => {
      const look = () => {
        const i = inbox.findIndex(match);
        if (i < 0) return;
        waiters.delete(look);
        clearTimeout(timer);
        resolve(inbox.splice(i, 1)[0]!);
      };
      const timer = setTimeout(() => (waiters.delete(look), reject(new Error(`no message within ${ms} ms; inbox ${JSON.stringify(inbox)}`))), ms);
      waiters.add(look);
      look();
    });
  return { ws, inbox, next };
}

const base = (objectType: string) => ({ type: 'base', objectType });
const request = (objectSet: unknown, propertySet: string[] = []) => ({
  objectSet,
  propertySet,
  referenceSet: [],
  objectLoadingResponseOptions: { shouldLoadObjectRids: true },
});

describe('subscriptions on the wire', () => {
  it('echoes the Bearer subprotocol; duplicate requests share one id; an unknown type is an error beside a success', async () => {
    const { ws, next } = await socket();
    expect(ws.protocol).toBe(`Bearer-${token}`);
    ws.send(JSON.stringify({ id: 'm1', requests: [request(base('Employee')), request(base('Employee')), request(base('Nope'))] }));
    const answer = await next((m) => m.type === 'subscribeResponses');
    const responses = answer.responses as Array<Record<string, unknown>>;
    expect(answer.id).toBe('m1');
    expect(responses.map((r) => r.type)).toEqual(['success', 'success', 'error']);
    expect(responses[0]!.id).toBe(responses[1]!.id);
    expect(responses[2]!.errors).toEqual([{ error: 'ObjectTypeNotFound', args: [{ name: 'objectType', value: 'Nope' }] }]);
    // The same list again (the client's heartbeat) keeps the id.
    ws.send(JSON.stringify({ id: 'm2', requests: [request(base('Employee'))] }));
    expect(((await next((m) => m.id === 'm2')).responses as Array<{ id: string }>)[0]!.id).toBe(responses[0]!.id);
    ws.close();
  });

  it('a malformed message is an error response and the connection stays; changes still arrive with the selected properties', async () => {
    const { ws, next } = await socket();
    for (const bad of ['not json', '[]', '{"requests":[]}', '{"id":"x","requests":[{"objectSet":1}]}']) {
      ws.send(bad);
      const answer = await next((m) => m.type === 'subscribeResponses');
      expect((answer.responses as Array<{ type: string; errors: Array<{ error: string }> }>)[0]!.errors[0]!.error).toBe('InvalidSubscribeRequest');
    }
    ws.send(
      JSON.stringify({
        id: 'ok',
        requests: [request({ type: 'filter', objectSet: base('Office'), where: { type: 'gt', field: 'capacity', value: 30 } }, ['name'])],
      }),
    );
    const id = ((await next((m) => m.id === 'ok')).responses as Array<{ id: string }>)[0]!.id;
    await emulator.putObject('acme', 'Office', 'par', { name: 'Paris', capacity: 50 });
    const changed = await next((m) => m.type === 'objectSetChanged');
    expect(changed.id).toBe(id);
    const [update] = changed.updates as Array<{ type: string; state: string; object: Record<string, unknown> }>;
    expect(update!.type).toBe('object');
    expect(update!.state).toBe('ADDED_OR_UPDATED');
    expect(update!.object).toMatchObject({ name: 'Paris', __apiName: 'Office', __primaryKey: 'par' });
    expect(update!.object.capacity).toBeUndefined();
    expect(String(update!.object.__rid)).toMatch(/^ri\.phonograph2-objects\./);
    expect(ws.readyState).toBe(WebSocket.OPEN);
    ws.close();
  });

  it('a flood of messages is answered with errors past the rate, and the connection stays usable', async () => {
    const { ws, next, inbox } = await socket();
    for (let i = 0; i < 300; i++) ws.send(JSON.stringify({ id: `f${i}`, requests: [request(base('Office'))] }));
    await next((m) => m.id === 'f299', 5000);
    const answers = [...inbox.filter((m) => m.type === 'subscribeResponses')];
    const limited = answers.filter((m) => (m.responses as Array<{ errors?: Array<{ error: string }> }>)[0]!.errors?.[0]?.error === 'SubscriptionRateLimited');
    expect(limited.length).toBeGreaterThan(100);
    expect(ws.readyState).toBe(WebSocket.OPEN);
    ws.close();
  });

  it('the server-sent-event form: the same body, each message one data event', async () => {
    const controller = new AbortController();
    const res = await fetch(`${emulator.url}${path}/sseSubscriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ id: 's1', requests: [request(base('Office'))] }),
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.getReader();
    const events: Message[] = [];
    let buffer = '';
    const until = async (match: (m: Message) => boolean) => {
      for (let i = 0; i < 100 && !events.some(match); i++) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += new TextDecoder().decode(value);
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          if (frame.startsWith('data: ')) events.push(JSON.parse(frame.slice(6)) as Message);
        }
      }
      return events.find(match)!;
    };
    const answer = await until((m) => m.type === 'subscribeResponses');
    expect((answer.responses as Array<{ type: string }>)[0]!.type).toBe('success');
    await emulator.deleteObject('acme', 'Office', 'sfo');
    const changed = await until((m) => m.type === 'objectSetChanged');
    expect((changed.updates as Array<{ state: string; object: { __primaryKey: string } }>).map((u) => [u.state, u.object.__primaryKey])).toEqual([
      ['REMOVED', 'sfo'],
    ]);
    controller.abort();
    const unauthorized = await fetch(`${emulator.url}${path}/sseSubscriptions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(unauthorized.status).toBe(401);
  });
});

describe('the dashboard view of subscriptions', () => {
  it('lists each live subscription with its user, set and messages sent', async () => {
    const { ws, next } = await socket();
    ws.send(JSON.stringify({ id: 'd1', requests: [request(base('Office'))] }));
    await next((m) => m.id === 'd1');
    const rows = (
      (await (await fetch(`${emulator.url}/_emulate/platform/ontologies/subscriptions?q=office`)).json()) as { items: Array<Record<string, unknown>> }
    ).items;
    expect(rows).toContainEqual(expect.objectContaining({ user: 'dev', transport: 'websocket', objectSet: JSON.stringify(base('Office')) }));
    ws.close();
  });
});
