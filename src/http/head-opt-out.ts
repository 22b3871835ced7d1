// GET routes with effects opt out of HEAD (`exposeHeadRoute: false`); with HEAD routed as GET
// (src/head-requests.ts) this keeps their HEAD answer a 404.
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { sentMethod } from '../head-requests.js';
import { routeNotFound } from './render-error.js';

/**
 * A GET route registered with `exposeHeadRoute: false` (a GET with effects: the sign-in page stores a pending
 * sign-in, a module's poll hands out a job) answers a HEAD request 404, as it did when HEAD had routes of its own.
 * Installed after the other onRoute hooks, so that this check runs first.
 */
export function refuseHeadWhereOptedOut(app: FastifyInstance): void {
  const refuse: onRequestHookHandler = (request, _reply, done) => {
    if (sentMethod(request.raw) !== 'HEAD') return done();
    done(routeNotFound(request.server.pathPolicies, 'HEAD', request.url));
  };
  app.addHook('onRoute', (route) => {
    if (route.exposeHeadRoute !== false) return;
    const own = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    route.onRequest = [refuse, ...own];
  });
}
