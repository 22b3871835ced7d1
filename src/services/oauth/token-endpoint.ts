// POST /token: grant_type -> the grant module, which authenticates the client (grants/grant.ts) and answers.
import { invalidRequest, unsupportedGrantType } from '../../errors.js';
import type { TokenResponse } from './access-tokens.js';
import { GRANTS, isGrantType } from './grants/index.js';
import type { Params } from './params.js';
import type { TokenDeps } from './deps.js';
import { named } from './reasons.js';

/**
 * Not async at its top: a missing or unknown grant_type throws before any promise exists. An async function
 * that rejects before its caller awaits it goes through Node's unhandled-rejection bookkeeping (~2 us), and the
 * route handler calling this is not async either, so the framework catches the throw directly.
 */
export function token(deps: TokenDeps, authorization: string | undefined, params: Params): Promise<TokenResponse> {
  const grantType = params.grant_type;
  if (grantType === undefined) {
    throw invalidRequest('The grant_type parameter is required.').because(
      'The token request has no grant_type; expected authorization_code, refresh_token or client_credentials.',
    );
  }
  if (!isGrantType(grantType)) {
    throw unsupportedGrantType(`${named('grant_type', grantType)} is not supported.`).because(
      `${named('grant_type', grantType)} is not one this service knows; expected authorization_code, refresh_token or client_credentials.`,
    );
  }
  return GRANTS[grantType](deps, { grantType, authorization, params });
}
