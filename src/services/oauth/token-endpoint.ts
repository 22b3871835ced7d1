// POST /token: grant_type -> client authentication -> the client's grant types -> the grant module.
import type { Clock } from '../../clock.js';
import type { Store } from '../../store/store.js';
import { invalidRequest, unauthorizedClient, unsupportedGrantType } from '../../errors.js';
import type { TokenResponse } from './access-tokens.js';
import { authenticateClient } from './client-auth.js';
import { GRANTS, isGrantType } from './grants/index.js';
import type { Params } from './params.js';

export async function token(deps: { store: Store; clock: Clock }, authorization: string | undefined, params: Params): Promise<TokenResponse> {
  const grantType = params.grant_type;
  if (grantType === undefined) throw invalidRequest('The grant_type parameter is required.');
  if (!isGrantType(grantType)) throw unsupportedGrantType(`grant_type "${grantType}" is not supported.`);
  const { client } = await authenticateClient(deps.store, authorization, params);
  if (!client.grantTypes.includes(grantType)) throw unauthorizedClient(`The client "${client.clientId}" is not allowed the ${grantType} grant.`);
  return GRANTS[grantType]({ store: deps.store, clock: deps.clock, client, params });
}
