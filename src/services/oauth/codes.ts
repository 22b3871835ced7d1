// Authorization codes (SPEC §2.3): 256 random bits, valid 10 minutes, bound to the client, redirect URI,
// scopes, user and PKCE challenge of the authorize request.
import type { Clock } from '../../clock.js';
import type { Store, UserRecord } from '../../store/store.js';
import { randomSecret, randomUuid } from '../../ids.js';
import { redirectWith } from './redirect-uris.js';
import type { ChallengeMethod } from './pkce.js';

export const CODE_TTL_MS = 10 * 60 * 1000;

export interface CodeSource {
  clientId: string;
  redirectUri: string;
  scopes: string[];
  state?: string;
  codeChallenge?: { value: string; method: ChallengeMethod };
}

/** Stores a fresh code for `user` and returns where to send the browser. */
export async function issueCode(deps: { store: Store; clock: Clock }, source: CodeSource, user: UserRecord): Promise<string> {
  const code = randomSecret();
  await deps.store.oauth.insertCode({
    code,
    clientId: source.clientId,
    redirectUri: source.redirectUri,
    scopes: source.scopes,
    userId: user.id,
    codeChallenge: source.codeChallenge?.value,
    codeChallengeMethod: source.codeChallenge?.method,
    grantId: randomUuid(),
    expiresAt: deps.clock.now() + CODE_TTL_MS,
  });
  return redirectWith(source.redirectUri, { code, state: source.state });
}
