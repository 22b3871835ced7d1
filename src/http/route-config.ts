// What a route declares about itself, as data in its Fastify `config`; src/http/auth.ts enforces it.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccessTokenRecord, UserRecord } from '../store/store.js';
import type { ErrorFamily, PathPolicies } from './path-policy.js';

export type { ErrorFamily };

/** The app a service's routes and backstage register on (the HTTP framework's instance). */
export type HttpApp = FastifyInstance;

export type RouteAuth =
  /** `Authorization: Bearer`; optional scope, and the 403 to answer without it. */
  | { kind: 'bearer'; scope?: string; denied?: { errorName: string; parameters?: (req: FastifyRequest) => Record<string, unknown> } }
  /** `/_emulate/platform/...`: loopback, or the configured control token. */
  | { kind: 'control' };

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
    /** A read that changes state when it answers 200 (a job poll hands out a job): the topics it changes. */
    changes?: readonly string[];
    /**
     * What a refusal of this route is about, as the request names it (a dataset, branch, transaction), for the
     * journal and log line to add to its reason where the reason does not say it already. Called on refusals only.
     */
    refusalSubject?: (request: FastifyRequest, reason: string) => string | undefined;
  }
  interface FastifyInstance {
    /** The services' path policy: envelopes before routing, CORS, change topics (src/http/path-policy.ts). */
    pathPolicies: PathPolicies;
  }
  interface FastifyRequest {
    /** Set by the bearer hook. */
    principal?: UserRecord;
    accessToken?: AccessTokenRecord;
  }
}

/** The route config of every control route: loopback, or the configured control token (src/http/auth.ts). */
export const CONTROL_ROUTE = { auth: { kind: 'control' } } as const;

/**
 * Which error envelope a request target answers in (docs/contracts.md §1), by the services' path policy (their
 * ServiceModule's `policy`, compiled once per app), chosen on the percent-decoded path (`/%69dp/api/oauth2/token`
 * reaches the token route, so its errors are OAuth's). Only escapes of ASCII characters are decoded, and a
 * malformed escape stays as it is, so this never throws. An absolute-form target (`http://host/path`) is judged
 * by its path.
 */
export function errorFamily(url: string, policies: PathPolicies): ErrorFamily {
  return policies.family(decodedPath(url));
}

/** The path of a request target, without its query, with escapes of ASCII characters decoded. */
export function decodedPath(url: string): string {
  let path = url;
  if (path[0] !== '/') {
    const scheme = path.indexOf('://');
    const slash = scheme > 0 ? path.indexOf('/', scheme + 3) : -1;
    if (scheme > 0) path = slash < 0 ? '/' : path.slice(slash);
  }
  const query = path.indexOf('?');
  if (query >= 0) path = path.slice(0, query);
  return path.includes('%') ? path.replace(/%([0-7][0-9A-Fa-f])/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))) : path;
}
