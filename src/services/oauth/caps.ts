// The OAuth service's caps under `platform.limits` (docs/contracts.md §8): how many pending sign-ins, codes and
// tokens it keeps. Declared in its seed codec (seed.ts), so the loader validates them with the rest of the
// document; defaults far above what a test suite meets. README's "Limits" table lists them.
import { Type } from '@sinclair/typebox';
import type { Seed } from '../../seed/schema.js';

const Cap = Type.Optional(Type.Integer({ minimum: 1 }));

/** Keys of `platform.limits` that bound the authorization server's stores. */
export const OAUTH_LIMIT_KEYS = {
  max_pending_sign_ins: Cap,
  max_authorization_codes: Cap,
  max_access_tokens: Cap,
  max_refresh_tokens: Cap,
  max_service_principals: Cap,
};

export interface OAuthLimits {
  /** Authorize requests waiting on the sign-in page; past it the oldest is forgotten. */
  maxPendingSignIns: number;
  /** Codes, exchanged or not, until they expire; past it the oldest is forgotten. */
  maxAuthorizationCodes: number;
  /** Live access tokens; past it new ones are refused (temporarily_unavailable). */
  maxAccessTokens: number;
  /** Refresh tokens, live or retired; past it the oldest retired one is forgotten, else new ones are refused. */
  maxRefreshTokens: number;
  /** Service principals made for open-mode client ids (never expired); past it a new client id is refused. */
  maxServicePrincipals: number;
}

type OAuthLimitSeed = Readonly<Record<string, number | undefined>>;

export function resolveOAuthLimits(seed: OAuthLimitSeed | undefined): Readonly<OAuthLimits> {
  return Object.freeze({
    maxPendingSignIns: seed?.max_pending_sign_ins ?? 10_000,
    maxAuthorizationCodes: seed?.max_authorization_codes ?? 10_000,
    maxAccessTokens: seed?.max_access_tokens ?? 100_000,
    maxRefreshTokens: seed?.max_refresh_tokens ?? 100_000,
    maxServicePrincipals: seed?.max_service_principals ?? 10_000,
  });
}

// One resolution per seed: a token mint reads a cap on every request.
const resolved = new WeakMap<object, Readonly<OAuthLimits>>();

/** The caps a seed sets, defaults filled in. */
export function oauthLimitsOf(seed: Pick<Seed, 'limits'>): Readonly<OAuthLimits> {
  let limits = resolved.get(seed.limits);
  if (!limits) resolved.set(seed.limits, (limits = resolveOAuthLimits(seed.limits)));
  return limits;
}
