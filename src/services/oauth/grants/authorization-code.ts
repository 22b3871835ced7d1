// grant_type=authorization_code (RFC 6749 §4.1.3, RFC 7636 §4.6). A code works once: any presentation
// consumes it, and a second one revokes what the first produced (RFC 6749 §4.1.2).
import { invalidGrant, invalidRequest } from '../../../errors.js';
import { mintAccessToken } from '../access-tokens.js';
import { verifierProblem } from '../pkce.js';
import { OFFLINE_ACCESS } from '../scopes.js';
import { assertGrantLive, newRefreshToken, revokeAuthorization } from '../refresh-tokens.js';
import type { Grant } from './grant.js';
import { refreshTokensFull, refusalFor } from '../limits.js';

export const authorizationCodeGrant: Grant = async ({ store, clock, settings, client, params }) => {
  if (params.code === undefined) throw invalidRequest('The code parameter is required.');
  const consumed = await store.oauth.consumeCode(params.code);
  if (consumed.outcome === 'unknown') throw invalidGrant('The authorization code is invalid or expired.');
  const code = consumed.code;
  if (consumed.outcome === 'replayed') {
    await revokeAuthorization({ store, clock, settings }, code.grantId);
    throw invalidGrant('The authorization code was already used; the tokens issued from it are revoked.');
  }
  if (code.expiresAt <= clock.now()) throw invalidGrant('The authorization code is invalid or expired.');
  if (code.clientId !== client.clientId) throw invalidGrant('The authorization code was issued to another client.');
  if (params.redirect_uri !== undefined && params.redirect_uri !== code.redirectUri) {
    throw invalidGrant('redirect_uri does not match the one of the authorization request.');
  }
  const pkce = verifierProblem(code.codeChallenge, params.code_verifier);
  if (pkce) throw invalidGrant(pkce);

  const user = await store.users.byId(code.userId);
  if (!user?.active) throw invalidGrant('The user of this authorization code is deactivated.');

  const response = await mintAccessToken({ store, clock, settings }, { principal: user, clientId: client.clientId, scopes: code.scopes, grantId: code.grantId });
  // A refresh token only with offline_access, and only for a client that may use it.
  if (code.scopes.includes(OFFLINE_ACCESS) && client.grantTypes.includes('refresh_token')) {
    const refresh = newRefreshToken(clock, { clientId: client.clientId, userId: user.id, scopes: code.scopes, grantId: code.grantId });
    try {
      await store.oauth.insertRefreshToken(refresh, settings.oauthLimits.maxRefreshTokens);
    } catch (err) {
      await store.tokens.revokeAccess(response.access_token); // refused as a whole: no token is left behind
      throw refusalFor(err, refreshTokensFull);
    }
    response.refresh_token = refresh.token;
  }
  await assertGrantLive(store, code.grantId);
  return response;
};
