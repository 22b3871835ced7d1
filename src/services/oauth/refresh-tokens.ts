// Refresh tokens (SPEC §2.3): `platform_refresh_` + 256 random bits. The spec leaves their lifetime open;
// we keep each one 24 hours (every refresh hands out a fresh one), long enough for a working day and short
// enough that retired tokens, kept to recognise reuse, do not pile up.
import type { Clock } from '../../clock.js';
import type { RefreshTokenRecord, Store } from '../../store/store.js';
import { randomSecret } from '../../ids.js';
import { invalidGrant } from '../../errors.js';
import type { OAuthDeps } from './deps.js';
import { oauthLimitsOf } from './caps.js';
import { TOKEN_PREFIX } from '../../platform-constants.js';

const REFRESH_TOKEN_PREFIX = `${TOKEN_PREFIX}refresh_`;
export const REFRESH_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

export function newRefreshToken(clock: Clock, of: Pick<RefreshTokenRecord, 'clientId' | 'userId' | 'scopes' | 'grantId'>): RefreshTokenRecord {
  const now = clock.now();
  return { ...of, token: REFRESH_TOKEN_PREFIX + randomSecret(), expiresAt: now + REFRESH_TOKEN_TTL_MS };
}

/** When the token was issued: every refresh token lives exactly REFRESH_TOKEN_TTL_MS. */
export const refreshIssuedAt = (token: Pick<RefreshTokenRecord, 'expiresAt'>): number => token.expiresAt - REFRESH_TOKEN_TTL_MS;

/** Revokes everything one authorization produced: its refresh family and its access tokens. */
export async function revokeAuthorization(deps: OAuthDeps, grantId: string): Promise<void> {
  // Remembered as long as any token of the grant could still be presented; at most as many marks as refresh
  // tokens (the oldest forgotten: a mark only matters while a token of its grant is being issued).
  await deps.store.oauth.revokeGrant(grantId, deps.clock.now() + REFRESH_TOKEN_TTL_MS, oauthLimitsOf(deps.seed).maxRefreshTokens);
  await deps.store.tokens.revokeGrant(grantId);
}

/**
 * Revokes every token acting as the user: its access tokens, and each authorization that could still mint more
 * (a refresh token), as a deleted user and `revokeAllTokens` must (docs/directory.md).
 */
export async function revokeEverythingOfUser(deps: OAuthDeps, userId: string): Promise<void> {
  for (const grantId of await deps.store.oauth.liveGrantsOfUser(userId)) await revokeAuthorization(deps, grantId);
  await deps.store.tokens.revokePrincipal(userId);
}

/**
 * Called after issuing tokens for a grant: if a concurrent request revoked the grant meanwhile (a replayed
 * code, a reused refresh token), the tokens just issued are revoked too and the request fails.
 */
export async function assertGrantLive(store: Store, grantId: string): Promise<void> {
  if (!(await store.oauth.isGrantRevoked(grantId))) return;
  await store.tokens.revokeGrant(grantId);
  throw invalidGrant('This authorization was revoked while the request was being processed.');
}

/**
 * Called after a code exchange issued tokens: if a replay of the same code revoked the grant meanwhile (on any
 * instance), what was just issued is revoked too, but the answer stands. The exchange that consumed the code
 * fresh is the one that answers 200 (RFC 6749 §4.1.2 lets its tokens be revoked by the replay); refusing it as
 * well left a race with no 200 at all (issue 25).
 */
export async function revokeIfGrantRevoked(deps: OAuthDeps, grantId: string): Promise<void> {
  if (!(await deps.store.oauth.isGrantRevoked(grantId))) return;
  await revokeAuthorization(deps, grantId);
}
