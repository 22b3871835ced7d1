// grant_type=authorization_code (RFC 6749 §4.1.3, RFC 7636 §4.6). A code works once: any presentation
// consumes it, and a second one revokes what the first produced (RFC 6749 §4.1.2). Of two racing exchanges
// exactly one answers 200: the one that consumed the code fresh (docs/oauth.md).
import { invalidGrant, invalidRequest } from '../../../errors.js';
import { mintAccessToken } from '../access-tokens.js';
import { verifierProblem } from '../pkce.js';
import { OFFLINE_ACCESS } from '../scopes.js';
import { newRefreshToken, revokeAuthorization, revokeIfGrantRevoked } from '../refresh-tokens.js';
import { afterClientAuthentication, type Grant } from './grant.js';
import { quote, quoteUri, when } from '../reasons.js';
import { refreshTokensFull, refusalFor } from '../limits.js';
import { oauthLimitsOf } from '../caps.js';

export const authorizationCodeGrant: Grant = afterClientAuthentication(async ({ store, clock, seed, client, params }) => {
  if (params.code === undefined)
    throw invalidRequest('The code parameter is required.').because('The authorization_code grant needs the code the redirect carried; the request has none.');
  const consumed = await store.oauth.consumeCode(params.code);
  if (consumed.outcome === 'unknown') {
    throw invalidGrant('The authorization code is invalid or expired.').because(
      'The code is not one this service issued (or a reset forgot it, or it was swept after expiry).',
    );
  }
  const code = consumed.code;
  if (consumed.outcome === 'replayed') {
    await revokeAuthorization({ store, clock, seed }, code.grantId);
    throw invalidGrant('The authorization code was already used; the tokens issued from it are revoked.').because(
      'The code was already exchanged once; a code works once, so the tokens issued from it are now revoked (RFC 6749 §4.1.2).',
    );
  }
  if (code.expiresAt <= clock.now()) {
    throw invalidGrant('The authorization code is invalid or expired.').because(
      `The code expired at ${when(code.expiresAt)} (codes live 10 minutes); it is now ${when(clock.now())}.`,
    );
  }
  if (code.clientId !== client.clientId) {
    throw invalidGrant('The authorization code was issued to another client.').because(
      `The code was issued to the client ${quote(code.clientId)}; the client ${quote(client.clientId)} presented it.`,
    );
  }
  if (params.redirect_uri !== undefined && params.redirect_uri !== code.redirectUri) {
    throw invalidGrant('redirect_uri does not match the one of the authorization request.').because(
      `The token request sent redirect_uri ${quoteUri(params.redirect_uri)}; the authorization request used ${quote(code.redirectUri)}.`,
    );
  }
  const pkce = verifierProblem(code.codeChallenge, params.code_verifier);
  if (pkce) {
    const method = code.codeChallenge ? `code_challenge_method ${code.codeChallenge.method}` : 'no code_challenge';
    throw invalidGrant(pkce).because(`PKCE: ${pkce} (the authorization request had ${method}).`);
  }

  const user = await store.users.byId(code.userId);
  if (!user?.active) {
    throw invalidGrant('The user of this authorization code is deactivated.').because(
      user ? `The user ${quote(user.username)} who signed in is now deactivated.` : 'The user who signed in no longer exists.',
    );
  }

  const response = await mintAccessToken({ store, clock, seed }, { principal: user, clientId: client.clientId, scopes: code.scopes, grantId: code.grantId });
  // A refresh token only with offline_access, and only for a client that may use it.
  if (code.scopes.includes(OFFLINE_ACCESS) && client.grantTypes.includes('refresh_token')) {
    const refresh = newRefreshToken(clock, { clientId: client.clientId, userId: user.id, scopes: code.scopes, grantId: code.grantId });
    try {
      await store.oauth.insertRefreshToken(refresh, oauthLimitsOf(seed).maxRefreshTokens);
    } catch (err) {
      await store.tokens.revokeAccess(response.access_token); // refused as a whole: no token is left behind
      throw refusalFor(err, refreshTokensFull);
    }
    response.refresh_token = refresh.token;
  }
  // A replay racing this exchange may have revoked the grant: its tokens go too, the answer stays a 200.
  await revokeIfGrantRevoked({ store, clock, seed }, code.grantId);
  return response;
});
