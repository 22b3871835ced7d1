// Refresh tokens (SPEC §2.3): `platform_refresh_` + 256 random bits. The spec leaves their lifetime open;
// we keep each one 24 hours (every refresh hands out a fresh one), long enough for a working day and short
// enough that retired tokens, kept to recognise reuse, do not pile up.
import type { Clock } from '../../clock.js';
import type { RefreshTokenRecord, Store } from '../../store/store.js';
import { randomSecret } from '../../ids.js';

export const REFRESH_TOKEN_PREFIX = 'platform_refresh_';
export const REFRESH_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

export function newRefreshToken(clock: Clock, of: Pick<RefreshTokenRecord, 'clientId' | 'userId' | 'scopes' | 'grantId'>): RefreshTokenRecord {
  const now = clock.now();
  return { ...of, token: REFRESH_TOKEN_PREFIX + randomSecret(), issuedAt: now, expiresAt: now + REFRESH_TOKEN_TTL_MS };
}

/** Revokes everything one authorization produced: its access tokens and its refresh family. */
export async function revokeAuthorization(store: Store, grantId: string): Promise<void> {
  await store.oauth.revokeRefreshFamily(grantId);
  await store.tokens.revokeGrant(grantId);
}
