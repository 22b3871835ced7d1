// grant_type=refresh_token (RFC 6749 §6) with rotation: each use retires the presented token and hands out
// a new one; presenting a retired token revokes the whole family (RFC 9700 §4.14.2). The access token gets
// the original scopes, or a subset named by `scope`; the new refresh token keeps the original scopes.
import { invalidGrant, invalidRequest, invalidScope } from '../../../errors.js';
import { mintAccessToken } from '../access-tokens.js';
import { checkScopes } from '../scopes.js';
import { assertGrantLive, newRefreshToken, revokeAuthorization } from '../refresh-tokens.js';
import type { Grant } from './grant.js';
import type { OAuthDeps } from '../deps.js';

const INVALID = 'The refresh token is invalid, expired or revoked.';

async function reused(deps: OAuthDeps, grantId: string): Promise<never> {
  await revokeAuthorization(deps, grantId);
  throw invalidGrant('The refresh token was already used; every token of this authorization is revoked.');
}

export const refreshTokenGrant: Grant = async ({ store, clock, settings, client, params }) => {
  if (params.refresh_token === undefined) throw invalidRequest('The refresh_token parameter is required.');
  const current = await store.oauth.findRefreshToken(params.refresh_token);
  if (!current || current.expiresAt <= clock.now()) throw invalidGrant(INVALID);
  if (current.clientId !== client.clientId) throw invalidGrant('The refresh token was issued to another client.');
  if (current.retired) return reused({ store, clock, settings }, current.grantId);

  let scopes = current.scopes;
  if (params.scope !== undefined) {
    const requested = checkScopes(client, params.scope);
    if ('problem' in requested) throw invalidScope(requested.problem);
    const wider = requested.scopes.filter((s) => !current.scopes.includes(s));
    if (wider.length > 0) throw invalidScope(`A refresh cannot add scopes the original authorization did not grant: ${wider.join(' ')}.`);
    scopes = requested.scopes;
  }

  const user = await store.users.byId(current.userId);
  if (!user?.active) throw invalidGrant('The user of this refresh token is deactivated.');

  // The access token first: refused past limits.max_access_tokens, it leaves the refresh token unrotated and usable.
  const response = await mintAccessToken({ store, clock, settings }, { principal: user, clientId: client.clientId, scopes, grantId: current.grantId });
  const next = newRefreshToken(clock, { clientId: client.clientId, userId: current.userId, scopes: current.scopes, grantId: current.grantId });
  const rotated = await store.oauth.rotateRefreshToken(current.token, next, settings.oauthLimits.maxRefreshTokens);
  // Rotation is the atomic step: a concurrent use of the same token lands here as a reuse, which revokes the
  // grant's access tokens, the one just minted among them.
  if (rotated.outcome === 'reused') return reused({ store, clock, settings }, rotated.grantId);
  if (rotated.outcome === 'unknown') {
    await store.tokens.revokeAccess(response.access_token);
    throw invalidGrant(INVALID);
  }
  response.refresh_token = next.token;
  await assertGrantLive(store, current.grantId);
  return response;
};
