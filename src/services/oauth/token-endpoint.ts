// POST /token: grant_type -> client authentication -> the client's grant types -> the grant module.
import type { GrantType } from '../../store/store.js';
import { invalidRequest, unauthorizedClient, unsupportedGrantType } from '../../errors.js';
import type { TokenResponse } from './access-tokens.js';
import { authenticateClient } from './client-auth.js';
import { GRANTS, isGrantType } from './grants/index.js';
import { clientCredentialsAsRemembered } from './grants/remembered-client.js';
import type { Params } from './params.js';
import type { TokenDeps } from './deps.js';
import { named, quote, quoteAll } from './reasons.js';

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
  return grant(deps, grantType, authorization, params);
}

async function grant(deps: TokenDeps, grantType: GrantType, authorization: string | undefined, params: Params): Promise<TokenResponse> {
  if (grantType === 'client_credentials') {
    const minted = await clientCredentialsAsRemembered(deps, authorization, params);
    if (minted) return minted;
  }
  const { client } = await authenticateClient(deps.store, authorization, params);
  if (!client.grantTypes.includes(grantType)) {
    throw unauthorizedClient(`The client "${client.clientId}" is not allowed the ${grantType} grant.`).because(
      `The client ${quote(client.clientId)} asked for the ${grantType} grant; it is registered for ${quoteAll(client.grantTypes)}.`,
    );
  }
  return GRANTS[grantType]({ store: deps.store, clock: deps.clock, settings: deps.settings, scopeMatrix: deps.scopeMatrix, client, params });
}
