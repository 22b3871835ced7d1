// One hook enforces what each route declares in `config.auth` (src/http/route-config.ts).
// Bearer order (docs/contracts.md §1): token valid (401) -> user active (401 invalid_token) -> scope (403).
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { Store } from '../store/store.js';
import type { Clock } from '../clock.js';
import type { Settings } from '../settings.js';
import { isLoopbackHost } from '../settings.js';
import { DeactivatedUser, type Unauthenticated, permissionDenied } from '../errors.js';
import { EXPIRED_TOKEN, NO_TOKEN, NO_USER, UNKNOWN_TOKEN } from './bearer-refusals.js';
import type { RouteAuth } from './route-config.js';
import { renderBearer, routeNotFound } from './render-error.js';
import { laneLookup } from './fast-lane.js';
import { sentMethod } from '../head-requests.js';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return header ? BEARER.exec(header)?.[1] : undefined;
}

/** Constant-time comparison of two strings (different lengths are unequal, compared in constant time too). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  if (left.length !== right.length) {
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}

interface AuthDeps {
  store: Store;
  clock: Clock;
  settings: Readonly<Settings>;
}

export function installAuth(app: FastifyInstance, deps: AuthDeps): void {
  // Attached to each route that declares auth, ahead of the route's own onRequest hooks; routes without it
  // pay nothing (an app-wide async hook cost every request a promise and a microtask turn).
  app.addHook('onRoute', (route) => {
    const auth = (route.config as { auth?: RouteAuth } | undefined)?.auth;
    if (!auth) return;
    const hook: onRequestAsyncHookHandler =
      auth.kind === 'bearer'
        ? (request, reply) => authenticateBearer(request, auth, deps).then((refusal) => (refusal ? renderBearer(reply, refusal) : undefined))
        : async (request) => checkControl(request, deps.settings);
    const own = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    route.onRequest = [hook, ...own];
  });
}

/** The token and its user, in one store step (one round trip on PostgreSQL). */
const findTokenAndPrincipal = (store: Store, presented: string) => store.tokens.findAccessWithPrincipal(presented);

async function authenticateBearer(
  request: FastifyRequest,
  auth: Extract<RouteAuth, { kind: 'bearer' }>,
  deps: AuthDeps,
): Promise<Unauthenticated | DeactivatedUser | undefined> {
  const presented = bearerToken(request);
  if (!presented) return NO_TOKEN;
  // A fast lane that declined this request has looked the token up already (src/http/fast-lane.ts).
  const found = laneLookup(request.raw, presented)?.found ?? (await findTokenAndPrincipal(deps.store, presented));
  if (!found) return UNKNOWN_TOKEN;
  const { token, principal: user } = found;
  if (token.expiresAt <= deps.clock.now()) return EXPIRED_TOKEN;
  if (!user) return NO_USER;
  if (!user.active) return new DeactivatedUser().because(`The user "${user.username}" of this token is deactivated; activate it to use the token.`);
  if (auth.scope && !token.scopes.includes(auth.scope)) {
    const denied = auth.denied ?? { errorName: 'ApiUsageDenied' };
    const parameters = denied.parameters ? denied.parameters(request) : { missingScope: auth.scope };
    const has = token.scopes.length === 0 ? 'no scopes' : `the scopes ${token.scopes.join(' ')}`;
    throw permissionDenied(denied.errorName, parameters).because(`This route needs the scope ${auth.scope}; the token has ${has}.`);
  }
  request.accessToken = token;
  request.principal = user;
  return undefined;
}

/**
 * Control routes are served while the service listens on a loopback address, or, elsewhere, when the
 * config sets `control_token` and the request carries it. Otherwise they do not exist (404), so that a
 * service exposed on a network does not advertise them.
 */
function checkControl(request: FastifyRequest, settings: Readonly<Settings>): void {
  if (isLoopbackHost(settings.host)) return;
  const presented = bearerToken(request);
  if (settings.controlToken && presented && safeEqual(presented, settings.controlToken)) return;
  // The 404 an unknown route would get, in the URL's envelope (the compute-module runtime routes use OAuth's).
  throw routeNotFound(request.server.pathPolicies, sentMethod(request.raw), request.url);
}
