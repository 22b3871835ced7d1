// What a route declares about itself, as data in its Fastify `config`; src/http/auth.ts enforces it.
import type { FastifyRequest } from 'fastify';
import type { AccessTokenRecord, UserRecord } from '../store/store.js';

export type RouteAuth =
  /** `Authorization: Bearer`; optional scope, and the 403 to answer without it. */
  | { kind: 'bearer'; scope?: string; denied?: { errorName: string; parameters?: (req: FastifyRequest) => Record<string, unknown> } }
  /** `/_emulate/platform/...`: loopback, or the configured control token. */
  | { kind: 'control' };

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
  }
  interface FastifyRequest {
    /** Set by the bearer hook. */
    principal?: UserRecord;
    accessToken?: AccessTokenRecord;
  }
}

/** The route config of every control route: loopback, or the configured control token (src/http/auth.ts). */
export const CONTROL_ROUTE = { auth: { kind: 'control' } } as const;

/** Which error envelope a URL answers in (CONTRACTS §1). */
export type ErrorFamily = 'platform' | 'oauth' | 'html';

const OAUTH_PREFIXES = ['/idp/api/oauth2/', '/_emulate/platform/compute-modules/', '/analytics-backend-multiplexer/'];
const HTML_PATHS = new Set(['/idp/api/oauth2/authorize', '/idp/api/oauth2/authorize/callback']);

/**
 * The family of a request target, chosen on its percent-decoded path (`/%69dp/api/oauth2/token` reaches the
 * token route, so its errors are OAuth's). Only escapes of ASCII characters are decoded: the prefixes are
 * ASCII, and a malformed escape stays as it is, so this never throws. An absolute-form target
 * (`http://host/path`) is judged by its path.
 */
export function errorFamily(url: string): ErrorFamily {
  const path = decodedPath(url);
  if (HTML_PATHS.has(path.endsWith('/') ? path.slice(0, -1) : path)) return 'html';
  for (const prefix of OAUTH_PREFIXES) if (path.startsWith(prefix)) return 'oauth';
  return 'platform';
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
