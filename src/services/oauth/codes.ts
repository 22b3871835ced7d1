// Authorization codes (SPEC §2.3): 256 random bits, valid 10 minutes, bound to the client, redirect URI,
// scopes, user and PKCE challenge of the authorize request.
import type { AuthorizationParameters, UserRecord } from '../../store/store.js';
import { randomSecret, randomUuid } from '../../ids.js';
import { redirectWith } from './redirect-uris.js';
import type { OAuthDeps } from './deps.js';
import { oauthLimitsOf } from './caps.js';

const CODE_TTL_MS = 10 * 60 * 1000;

/** Stores a fresh code for `user` and returns where to send the browser. */
export async function issueCode(deps: OAuthDeps, source: AuthorizationParameters, user: UserRecord): Promise<string> {
  const code = randomSecret();
  const { clientId, redirectUri, scopes, codeChallenge } = source;
  await deps.store.oauth.insertCode(
    {
      code,
      clientId,
      redirectUri,
      scopes,
      codeChallenge,
      userId: user.id,
      grantId: randomUuid(),
      expiresAt: deps.clock.now() + CODE_TTL_MS,
    },
    oauthLimitsOf(deps.seed).maxAuthorizationCodes,
  );
  return redirectWith(source.redirectUri, { code, state: source.state });
}
