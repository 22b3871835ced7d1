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
type ErrorFamily = 'platform' | 'oauth' | 'html';

const OAUTH_PREFIXES = ['/idp/api/oauth2/', '/_emulate/platform/compute-modules/', '/analytics-backend-multiplexer/'];
const HTML_PREFIX = '/idp/api/oauth2/authorize';

export function errorFamily(url: string): ErrorFamily {
  if (url.startsWith(HTML_PREFIX)) return 'html';
  if (OAUTH_PREFIXES.some((p) => url.startsWith(p))) return 'oauth';
  return 'platform';
}
