// client_credentials in one store round trip, where the store offers it (PostgreSQL). The client is
// authenticated against the record this instance last read (ClientRepo.remembered), with no store call, and the
// token is stored only if the stored client still equals that record, checked by the statement that stores it:
// the guarantee of reading the client afresh. Anything short of a clean success answers undefined, and the token
// endpoint takes its general path, which reads everything afresh and answers as it always did (errors included).
// The presented client is read once by the grant (./client-credentials.ts) and given to both paths.
import type { TokenResponse } from '../access-tokens.js';
import { provesClient, type Presented } from '../client-auth.js';
import type { TokenDeps } from '../deps.js';
import type { Params } from '../params.js';
import { mintForClientPrincipal } from '../service-principals.js';
import { clientCredentialsScopes } from '../scopes.js';

/** Undefined at once when the remembered client cannot decide; else the mint, which may still answer undefined. */
export function clientCredentialsAsRemembered(deps: TokenDeps, presented: Presented, params: Params): Promise<TokenResponse | undefined> | undefined {
  const client = deps.store.clients.remembered(presented.clientId);
  if (!client || !provesClient(client, presented) || !client.grantTypes.includes('client_credentials')) return undefined;
  const requested = clientCredentialsScopes(client, params, deps.scopeMatrix);
  if ('problem' in requested) return undefined;
  return mintForClientPrincipal(deps, client.clientId, requested.scopes, client);
}
