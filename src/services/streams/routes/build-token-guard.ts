// The build-token rule (docs/streams.md, "Pipeline mode"), for every route of the app: a request carrying a
// build token must name, in its path, a resource its app declared, and every resource rid it names must be
// declared (a rid under one, such as a stream's view or a dataset's transaction, rides on that one). Other
// tokens pass at the cost of one property check, with no promise made.
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Store } from '../../../store/store.js';
import { resourceNotDeclared } from '../errors.js';
import { declaredRidsOf, isBuildToken } from '../pipeline/build-token.js';

/** Rids of things inside a resource: allowed beside a declared resource. */
const INNER = /^ri\.[^.]+\.[^.]*\.(transaction|view|branch)\./;

function ridsInPath(url: string): string[] {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const rids: string[] = [];
  for (const raw of path.split('/')) {
    let segment = raw;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      // a malformed escape names no rid
    }
    if (segment.startsWith('ri.') && !INNER.test(segment)) rids.push(segment);
  }
  return rids;
}

export function buildTokenGuard(store: Store) {
  return (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    const token = request.accessToken;
    if (!token || !isBuildToken(token)) return done();
    declaredRidsOf(store, token).then(
      (declared) => {
        const named = ridsInPath(request.url);
        const stranger = named.find((rid) => !declared.includes(rid));
        if (stranger !== undefined) return done(resourceNotDeclared(stranger));
        if (named.length === 0) return done(resourceNotDeclared(`(no resource in ${request.routeOptions.url ?? 'the path'})`));
        done();
      },
      (err: Error) => done(err),
    );
  };
}
