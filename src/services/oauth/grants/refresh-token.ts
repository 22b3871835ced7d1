// grant_type=refresh_token (RFC 6749 §6) with rotation: each use retires the presented token and hands out
// a new one; presenting a retired token revokes the whole family (RFC 9700 §4.14.2). The access token gets
// the original scopes, or a subset named by `scope`; the new refresh token keeps the original scopes.
import { invalidGrant, invalidRequest, invalidScope } from '../../../errors.js';
import { mintAccessToken } from '../access-tokens.js';
import { checkScopes } from '../scopes.js';
import { assertGrantLive, newRefreshToken, revokeAuthorization } from '../refresh-tokens.js';
import { afterClientAuthentication, type Grant } from './grant.js';
import type { OAuthDeps } from '../deps.js';
import { quote, quoteAll, when } from '../reasons.js';
import { oauthLimitsOf } from '../caps.js';

const INVALID = 'The refresh token is invalid, expired or revoked.';

async function reused(deps: OAuthDeps, grantId: string): Promise<never> {
  await revokeAuthorization(deps, grantId);
  throw invalidGrant('The refresh token was already used; every token of this authorization is revoked.').because(
    'The refresh token was already used once (rotation hands out a new one each time); reuse revokes the whole authorization (RFC 9700 §4.14.2).',
  );
}

export const refreshTokenGrant: Grant = afterClientAuthentication(async ({ store, clock, seed, client, params }) => {
  if (params.refresh_token === undefined) {
    throw invalidRequest('The refresh_token parameter is required.').because(
      'The refresh_token grant needs the refresh token of an earlier answer; the request has none.',
    );
  }
  const current = await store.oauth.findRefreshToken(params.refresh_token);
  if (!current) throw invalidGrant(INVALID).because('The refresh token is not one this service issued, or it was revoked (a reset forgets every token).');
  if (current.expiresAt <= clock.now()) {
    throw invalidGrant(INVALID).because(
      `The refresh token expired at ${when(current.expiresAt)} (refresh tokens live 24 hours); it is now ${when(clock.now())}.`,
    );
  }
  if (current.clientId !== client.clientId) {
    throw invalidGrant('The refresh token was issued to another client.').because(
      `The refresh token was issued to the client ${quote(current.clientId)}; the client ${quote(client.clientId)} presented it.`,
    );
  }
  if (current.retired) return reused({ store, clock, seed }, current.grantId);

  let scopes = current.scopes;
  if (params.scope !== undefined) {
    const requested = checkScopes(client, params.scope);
    if ('problem' in requested)
      throw invalidScope(requested.problem).because(`${requested.problem} The client may ask for ${quoteAll(client.allowedScopes, 'any scope')}.`);
    const wider = requested.scopes.filter((s) => !current.scopes.includes(s));
    if (wider.length > 0) {
      throw invalidScope(`A refresh cannot add scopes the original authorization did not grant: ${wider.join(' ')}.`).because(
        `The refresh asked for ${quoteAll(wider)}, beyond the original authorization's ${quoteAll(current.scopes)}; a refresh may narrow scopes, never widen them.`,
      );
    }
    scopes = requested.scopes;
  }

  const user = await store.users.byId(current.userId);
  if (!user?.active) {
    throw invalidGrant('The user of this refresh token is deactivated.').because(
      user ? `The user ${quote(user.username)} of this refresh token is now deactivated.` : 'The user of this refresh token no longer exists.',
    );
  }

  // The access token first: refused past limits.max_access_tokens, it leaves the refresh token unrotated and usable.
  const response = await mintAccessToken({ store, clock, seed }, { principal: user, clientId: client.clientId, scopes, grantId: current.grantId });
  const next = newRefreshToken(clock, { clientId: client.clientId, userId: current.userId, scopes: current.scopes, grantId: current.grantId });
  const rotated = await store.oauth.rotateRefreshToken(current.token, next, oauthLimitsOf(seed).maxRefreshTokens);
  // Rotation is the atomic step: a concurrent use of the same token lands here as a reuse, which revokes the
  // grant's access tokens, the one just minted among them.
  if (rotated.outcome === 'reused') return reused({ store, clock, seed }, rotated.grantId);
  if (rotated.outcome === 'unknown') {
    await store.tokens.revokeAccess(response.access_token);
    throw invalidGrant(INVALID).because('The refresh token was revoked while this request was being processed.');
  }
  response.refresh_token = next.token;
  await assertGrantLive(store, current.grantId);
  return response;
});
