// CORS for browser apps (docs/contracts.md §11): the OAuth token, revoke and introspect routes and every `/api/v2`
// route answer cross-origin requests from the configured origins (`cors_origins`; by default every loopback
// origin, src/settings.ts). Bearer tokens travel in headers, so there is no credentials mode. The sign-in page
// and the control routes stay same-origin only.
//
// The headers are attached per route (an onRoute hook), so routes outside the list pay nothing; a CORS route
// pays one header lookup when the request carries no Origin. An unknown /api/v2 path is a route here too.
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { routeNotFound } from './render-error.js';
import { overlongSegment } from './edge-refusals.js';
import { sentMethod } from '../head-requests.js';

/** The platform API's root: its unknown paths answer CORS too (a page sees the 404, not a network error). */
const API_PREFIX = '/api/v2/';

const ALLOW_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
const ALLOW_HEADERS = 'authorization, content-type, accept, x-requested-with, fetch-user-agent, x-osdk-request-context';
/** A day: browsers cap it lower anyway (Chromium at two hours). */
const MAX_AGE_SECONDS = '86400';
/** What a page's script may read besides the safelisted response headers. */
const EXPOSE_HEADERS = 'www-authenticate, retry-after';

/**
 * A matcher for the configured origins: exact origins (`https://app.example.com`), a port wildcard
 * (`http://localhost:*`), or `*` for any origin. Origins compare without a trailing slash, case-insensitively.
 */
export function originMatcher(patterns: readonly string[]): (origin: string) => boolean {
  if (patterns.includes('*')) return () => true;
  const exact = new Set<string>();
  const anyPort: string[] = [];
  for (const pattern of patterns) {
    const normal = pattern.replace(/\/+$/, '').toLowerCase();
    if (normal.endsWith(':*')) anyPort.push(normal.slice(0, -1));
    else exact.add(normal);
  }
  return (origin) => {
    const o = origin.toLowerCase();
    if (exact.has(o)) return true;
    for (const prefix of anyPort) {
      if (o.startsWith(prefix) && /^\d{1,5}$/.test(o.slice(prefix.length))) return true;
    }
    // A default port: `http://localhost:*` also matches `http://localhost`.
    return anyPort.some((prefix) => o === prefix.slice(0, -1));
  };
}

/** Installs CORS on the routes registered after this call. */
export function installCors(app: FastifyInstance, patterns: readonly string[]): void {
  const allowed = originMatcher(patterns);
  const cache = new Map<string, boolean>();
  const isAllowed = (origin: string): boolean => {
    let answer = cache.get(origin);
    if (answer === undefined) {
      answer = allowed(origin);
      if (cache.size < 1000) cache.set(origin, answer);
    }
    return answer;
  };

  const simple: onRequestHookHandler = (request, reply, done) => {
    reply.header('Vary', 'Origin');
    const origin = request.headers.origin;
    if (origin !== undefined && isAllowed(origin)) {
      reply.header('Access-Control-Allow-Origin', origin).header('Access-Control-Expose-Headers', EXPOSE_HEADERS);
    }
    done();
  };

  app.addHook('onRoute', (route) => {
    if (route.method === 'OPTIONS' || !(route.url.startsWith(API_PREFIX) || app.pathPolicies.cors(route.url))) return;
    const own = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    route.onRequest = [simple, ...own];
  });

  const preflight = (request: FastifyRequest, reply: FastifyReply): void => {
    reply.header('Vary', 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers');
    const origin = request.headers.origin;
    if (origin !== undefined && isAllowed(origin)) {
      reply
        .header('Access-Control-Allow-Origin', origin)
        .header('Access-Control-Allow-Methods', ALLOW_METHODS)
        .header('Access-Control-Allow-Headers', ALLOW_HEADERS)
        .header('Access-Control-Max-Age', MAX_AGE_SECONDS);
    }
    // Without an allowed origin the answer has no CORS headers, and the browser refuses the real request.
    reply.code(204).header('Allow', `${ALLOW_METHODS}, OPTIONS`).send();
  };
  app.options(`${API_PREFIX}*`, preflight);
  for (const path of app.pathPolicies.exactCorsPaths()) if (!path.startsWith(API_PREFIX)) app.options(path, preflight);

  // An unknown /api/v2 path (or a wrong method) answers the same 404 as the not-found handler, but from a
  // route, so that it carries the CORS headers too: otherwise a page sees a network error, not the 404.
  // Static and parametric routes win over this wildcard. It refuses in onRequest, before any body is read,
  // as the not-found handler does: a body sent to no route is neither parsed nor refused for its type.
  app.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: `${API_PREFIX}*`,
    onRequest: async (request) => {
      throw overlongSegment(request.server.pathPolicies, request.url) ?? routeNotFound(request.server.pathPolicies, sentMethod(request.raw), request.url);
    },
    handler: async () => undefined,
  });
}
