// POST /token: grant_type -> the grant module, which authenticates the client (grants/grant.ts) and answers.
import { invalidRequest, OAuthError, unsupportedGrantType } from '../../errors.js';
import type { TokenResponse } from './access-tokens.js';
import { GRANTS, isGrantType } from './grants/index.js';
import type { Params } from './params.js';
import type { TokenDeps } from './deps.js';
import { named } from './reasons.js';

/**
 * The grant's answer, or the refusal decided before any grant runs, returned (refusals are as common here as
 * successes: ./client-auth.ts says why they are not thrown). Not async at its top: no promise for a refusal.
 */
export function tokenOutcome(deps: TokenDeps, authorization: string | undefined, params: Params): Promise<TokenResponse | OAuthError> | OAuthError {
  const grantType = params.grant_type;
  if (grantType === undefined) {
    return invalidRequest('The grant_type parameter is required.').because(
      'The token request has no grant_type; expected authorization_code, refresh_token or client_credentials.',
    );
  }
  if (!isGrantType(grantType)) {
    return unsupportedGrantType(`${named('grant_type', grantType)} is not supported.`).because(
      `${named('grant_type', grantType)} is not one this service knows; expected authorization_code, refresh_token or client_credentials.`,
    );
  }
  return GRANTS[grantType](deps, { grantType, authorization, params });
}

const thrownIfRefused = (outcome: TokenResponse | OAuthError): TokenResponse => {
  if (outcome instanceof OAuthError) throw outcome;
  return outcome;
};

/**
 * The route's form: a refusal is thrown, for the framework's error renderer. Not async at its top: a refusal made
 * before any store call throws synchronously, and the route handler calling this is not async either, so the
 * framework catches the throw directly (an async function that rejects before its caller awaits it goes through
 * Node's unhandled-rejection bookkeeping, ~2 us).
 */
export function token(deps: TokenDeps, authorization: string | undefined, params: Params): Promise<TokenResponse> {
  const outcome = tokenOutcome(deps, authorization, params);
  if (outcome instanceof OAuthError) throw outcome;
  return outcome.then(thrownIfRefused);
}
