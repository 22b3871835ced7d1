// Connection limits of the HTTP server (docs/contracts.md §8, config `limits`): a slow client cannot hold a socket for
// ever, idle keep-alive sockets close, and the number of open connections is capped.
//
// Node's `requestTimeout` and `headersTimeout` count only while a request is being received: a connection
// leaves Node's watch list once its request's last byte has arrived, so the handler may then hold it as long
// as it likes (a long-poll, a synchronous execute of minutes). test/http/server-limits.test.ts pins this on a
// real socket. No socket inactivity timeout is set, for the same reason: a held request is silent.
import type { IncomingMessage, Server, ServerOptions, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { LimitSettings } from '../settings.js';
import { answerClientError, answerConnect, answerExpectation, answerUnframedBody, unframedBody } from './edge-refusals.js';

/** The server options of `limits`, for the Fastify constructor (which passes `http` to Node's createServer). */
export function serverOptions(limits: LimitSettings): { requestTimeout: number; keepAliveTimeout: number; http: ServerOptions } {
  const requestTimeout = limits.requestTimeoutMs;
  // Node refuses a headers timeout longer than the request timeout.
  const headersTimeout = Math.min(limits.headersTimeoutMs, requestTimeout);
  return {
    requestTimeout,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: {
      requestTimeout,
      headersTimeout,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // Node checks the timeouts on this period (30 s by default, so a 1 s timeout could take 31 s).
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(headersTimeout / 4))),
      // Without Host, Node answers 400 with an empty body itself; the request is served like any other instead.
      requireHostHeader: false,
    },
  };
}

/** A listener asked before the framework; true when it took the request (it calls `route` to hand it back). */
export type FrontLane = (request: IncomingMessage, response: ServerResponse, route: () => void) => boolean;

/**
 * The connection cap, with one warning when it is first reached, and the answers of src/http/edge-refusals.ts
 * on every listening server: the main one, and those Fastify adds for a host name with several addresses
 * (`localhost`: 127.0.0.1 and ::1), which it creates with the same `http` options but none of these listeners.
 */
export function installServerLimits(app: FastifyInstance, limits: LimitSettings, front: FrontLane = () => false): void {
  let warned = false;
  const warnOnce = () => {
    if (warned) return;
    warned = true;
    app.log.warn(
      { maxConnections: limits.maxConnections },
      `The service holds ${limits.maxConnections} connections, its cap (config limits.max_connections): new connections are refused until some close. Logged once.`,
    );
  };
  const install = (server: Server, secondary: boolean) => {
    server.maxConnections = limits.maxConnections;
    server.on('drop', warnOnce);
    server.on('connect', (request, socket: Socket) => answerConnect(app, request, socket));
    server.on('checkExpectation', (request, response) => answerExpectation(app, request, response));
    if (secondary) server.on('clientError', (err: Error, socket: Socket) => answerClientError.call(app, err, socket));
    // In front of Fastify's handler: one header lookup per request, then the fast lanes (src/http/fast-lane.ts).
    const handlers = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
    server.removeAllListeners('request');
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      if (unframedBody(request)) return answerUnframedBody(app, request, response);
      const route = () => {
        for (const handler of handlers) handler.call(server, request, response);
      };
      if (!front(request, response, route)) route();
    });
  };
  install(app.server, false);
  app.addHook('onListen', function () {
    for (const server of secondaryServers(app)) install(server, true);
    // A failed accept (out of file descriptors) is an 'error' on the listening server: logged, not a crash.
    let told = false;
    app.server.on('error', (err: NodeJS.ErrnoException) => {
      if (told) return;
      told = true;
      app.log.warn(
        { code: err.code },
        `A connection could not be accepted (${err.code ?? err.message}); raise the open-file limit or lower limits.max_connections. Logged once.`,
      );
    });
  });
}

/** Fastify keeps its extra bindings under a private symbol; none when it listens on one address. */
function secondaryServers(app: FastifyInstance): Server[] {
  const key = Object.getOwnPropertySymbols(app).find((symbol) => symbol.description === 'fastify.serverBindings');
  const servers = key ? (app as unknown as Record<symbol, unknown>)[key] : undefined;
  return Array.isArray(servers) ? (servers as Server[]) : [];
}
