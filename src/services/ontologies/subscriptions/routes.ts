// Object set subscriptions on the wire (docs/live-ontology.md): the websocket the typed client opens, with its
// token in the `Bearer-<token>` subprotocol (echoed back, or the client aborts), and the server-sent-event form
// (POST with the same {id, requests} body, each server message one `data:` event). The token is checked by the
// same bearer hook as every route, before any upgrade: a bad or missing one is a 401 and the socket stays HTTP.
// Known deviations: the token is checked once, at the handshake; no `qos` answers, no reference (time series)
// updates; idle and ping timings are ours (docs/live-ontology.md).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import websocket from '@fastify/websocket';
import type { WebSocket } from 'ws';
import { READ } from '../context.js';
import { findOntology } from '../context.js';
import { conflict } from '../../../errors.js';
import { CONTROL_ROUTE } from '../../../http/route-config.js';
import type { Store } from '../../../store/store.js';
import { SubscriberConnection, DEFAULT_LIMITS, type ConnectionLimits, type OutMessage } from './connection.js';
import { SubscriptionHub } from './hub.js';
import { sseEvent, textFrame } from './frames.js';
import { DEFAULT_PACING, type PacingOptions } from './pacing.js';

export const SUBSCRIPTIONS_VIEW = '/_emulate/platform/ontologies/subscriptions';
export const SUBSCRIPTIONS_BASE = '/api/v2/ontologySubscriptions/ontologies/:ontology';
/** Largest client message (a subscribe list); the websocket closes with 1009 past it. */
const MAX_MESSAGE_BYTES = 1 << 20;
const MAX_CONNECTIONS = 10_000;
/** A websocket ping this often; a peer that has not answered the previous one is let go. */
const PING_MS = 30_000;
/** An SSE comment this often keeps proxies and readers from timing out. */
const SSE_HEARTBEAT_MS = 15_000;
/** A connection with no subscriptions is closed after this long (the client opens a new one when it needs one). */
const IDLE_CLOSE_MS = 5 * 60_000;

const BEARER_PROTOCOL = /(?:^|,)\s*Bearer-([^,\s]+)\s*(?:,|$)/;

export interface SubscriptionRouteOptions {
  store: Store;
  limits?: Partial<ConnectionLimits>;
  /** How one ontology's delivery runs are spaced under a stream of changes (pacing.ts). */
  pacing?: Partial<PacingOptions>;
}

export async function subscriptionRoutes(parent: FastifyInstance, deps: SubscriptionRouteOptions): Promise<SubscriptionHub> {
  const hub = new SubscriptionHub(deps.store, { ...DEFAULT_PACING, ...deps.pacing });
  const limits = { ...DEFAULT_LIMITS, ...deps.limits };
  parent.onReset(() => hub.changedAll(), { afterClear: true });
  parent.addHook('onClose', async () => hub.close());
  // The dashboard's view (index.ts): one row per live subscription, who holds it, on which set, what it was sent.
  parent.get<{ Querystring: { q?: string } }>(SUBSCRIPTIONS_VIEW, { config: CONTROL_ROUTE }, async (request) => {
    const q = (request.query.q ?? '').toLowerCase();
    return { items: hub.rows().filter((r) => !q || JSON.stringify(r).toLowerCase().includes(q)) };
  });

  await parent.register(async (scope) => {
    // Registered in this scope only, so the plugin's hooks wrap these routes and no others.
    // No compression: each message is a frame written straight to the socket (below), never queued inside ws.
    await scope.register(websocket, { options: { maxPayload: MAX_MESSAGE_BYTES, perMessageDeflate: false } });
    // The client cannot set headers on a websocket: its token rides in the subprotocol. Read here, ahead of
    // the route's bearer hook, as if it had come in `Authorization`.
    scope.addHook('onRequest', async (request) => {
      const protocols = request.headers['sec-websocket-protocol'];
      const token = typeof protocols === 'string' ? BEARER_PROTOCOL.exec(protocols)?.[1] : undefined;
      if (token && request.headers.authorization === undefined) request.headers.authorization = `Bearer ${token}`;
      if (hub.connections.size >= MAX_CONNECTIONS) throw conflict('TooManySubscriptionConnections', { limit: MAX_CONNECTIONS });
    });

    const ontologyOf = async (request: FastifyRequest) => (await findOntology(deps.store, (request.params as { ontology: string }).ontology)).rid;

    scope.get(`${SUBSCRIPTIONS_BASE}/streamSubscriptions`, {
      config: READ,
      // The ontology is resolved before the upgrade: an unknown one is a 404, not an open socket.
      preHandler: async (request: FastifyRequest) => {
        (request as FastifyRequest & { ontologyRid?: string }).ontologyRid = await ontologyOf(request);
      },
      websocket: true,
      handler: (socket: WebSocket, request: FastifyRequest) => {
        const rid = (request as FastifyRequest & { ontologyRid?: string }).ontologyRid!;
        // The upgraded TCP socket, which ws writes its own frames (pings, pongs, the close) to as well.
        const raw = request.raw.socket;
        const transport = {
          // One text frame (the client parses every message as JSON text) in one write of one buffer (frames.ts):
          // ws's send cost a `writev` of two buffers and its own bookkeeping per message. Without compression ws
          // writes its frames at once, never from a queue, so the socket's order is the order of these calls.
          send: (message: OutMessage, done: () => void) =>
            socket.readyState === socket.OPEN && raw.writable ? void raw.write(textFrame(message), () => done()) : done(),
          close: (code: number, reason: string) => socket.close(code, reason),
        };
        const connection = new SubscriberConnection(rid, request.principal?.username ?? '', 'websocket', transport, hub, limits);
        hub.attach(connection);
        let alive = true;
        socket.on('pong', () => (alive = true));
        const timer = setInterval(() => {
          if (!alive) return socket.terminate();
          if (connection.subscriptions.size === 0 && Date.now() - connection.lastActivity > IDLE_CLOSE_MS) return connection.close(1000, 'idle');
          alive = false;
          socket.ping();
        }, PING_MS).unref();
        socket.on('message', (data, isBinary) => void connection.receive(isBinary ? '' : String(data)));
        socket.on('close', () => {
          clearInterval(timer);
          connection.gone();
        });
      },
    } as never);

    scope.post(`${SUBSCRIPTIONS_BASE}/sseSubscriptions`, { config: READ }, async (request, reply) => {
      const rid = await ontologyOf(request);
      const raw = reply.raw;
      reply.hijack();
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
        connection: 'keep-alive',
      });
      raw.socket?.setNoDelay(true);
      raw.write(': connected\n\n');
      const transport = {
        send: (message: OutMessage, done: () => void) => (raw.writableEnded || raw.destroyed ? done() : void raw.write(sseEvent(message), () => done())),
        close: () => raw.end(),
      };
      const connection = new SubscriberConnection(rid, request.principal?.username ?? '', 'sse', transport, hub, limits);
      hub.attach(connection);
      const timer = setInterval(() => raw.write(': ping\n\n'), SSE_HEARTBEAT_MS).unref();
      raw.on('close', () => {
        clearInterval(timer);
        connection.gone();
      });
      void connection.receive(JSON.stringify(request.body ?? null));
    });
  });
  return hub;
}
