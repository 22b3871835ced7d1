// The OAuth part of `platform.limits` (docs/contracts.md §8): how many pending sign-ins, codes and tokens the service
// keeps. Defaults are far above what a test suite meets; README's "Limits" table lists them.
import { Type } from '@sinclair/typebox';

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

type OAuthLimitSeed = Partial<Record<keyof typeof OAUTH_LIMIT_KEYS, number>>;

export function resolveOAuthLimits(seed: OAuthLimitSeed | undefined): Readonly<OAuthLimits> {
  return Object.freeze({
    maxPendingSignIns: seed?.max_pending_sign_ins ?? 10_000,
    maxAuthorizationCodes: seed?.max_authorization_codes ?? 10_000,
    maxAccessTokens: seed?.max_access_tokens ?? 100_000,
    maxRefreshTokens: seed?.max_refresh_tokens ?? 100_000,
    maxServicePrincipals: seed?.max_service_principals ?? 10_000,
  });
}
