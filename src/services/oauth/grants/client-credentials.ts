// grant_type=client_credentials (RFC 6749 §4.4): a token for the client's service principal, with the
// requested scopes echoed and no refresh token. `offline_access` may be asked for (the Python platform SDK's
// ConfidentialClientAuth appends it to every scope list, docs/contracts.md §10): granted as asked, even when the
// client's allowed_scopes does not list it, and still no refresh token. A request with no `scope` at all (what
// the Python SDK and the command-line tools built on it send by default) gets the client's allowed_scopes, else
// every scope the served services check (docs/oauth.md).
import { invalidGrant, invalidScope, OAuthError } from '../../../errors.js';
import { DEFAULT_REALM } from '../../../platform-constants.js';
import { stableUuid } from '../../../ids.js';
import type { ClientRecord, UserRecord } from '../../../store/store.js';
import { mintAccessToken } from '../access-tokens.js';
import { clientCredentialsScopes } from '../scopes.js';
import { mintForClientPrincipal, withServicePrincipal } from '../service-principals.js';
import { authenticatedContext, type Grant, type GrantContext } from './grant.js';
import type { TokenResponse } from '../access-tokens.js';
import { clientCredentialsAsRemembered } from './remembered-client.js';
import { presentedClient } from '../client-auth.js';
import { quote, quoteAll } from '../reasons.js';

/** The principal made once per client when no seeded service user names it (username = client_id). */
function newServicePrincipal(client: ClientRecord): UserRecord {
  return {
    id: stableUuid(`service-principal:${client.clientId}`),
    username: client.clientId,
    displayName: client.name,
    realm: DEFAULT_REALM,
    organizationRid: '',
    principalType: 'service',
    active: true,
    oauthClientId: client.clientId,
    attributes: {},
  };
}

async function issueForClient({ store, clock, seed, scopeMatrix, client, params }: GrantContext): Promise<TokenResponse | OAuthError> {
  const requested = clientCredentialsScopes(client, params, scopeMatrix);
  if ('problem' in requested) {
    return invalidScope(requested.problem).because(
      `${requested.problem} The client ${quote(client.clientId)} may ask for ${quoteAll(client.allowedScopes, 'any scope')}.`,
    );
  }
  const minted = await mintForClientPrincipal({ store, clock, seed }, client.clientId, requested.scopes);
  if (minted) return minted;
  return withServicePrincipal(
    { store, clock, seed },
    client.clientId,
    () => newServicePrincipal(client),
    async (principal) => {
      if (!principal.active) {
        throw invalidGrant(`The service user of the client "${client.clientId}" is deactivated.`).because(
          `The service user ${quote(principal.username)} that client_credentials tokens of ${quote(client.clientId)} act as is deactivated.`,
        );
      }
      return mintAccessToken({ store, clock, seed }, { principal, clientId: client.clientId, scopes: requested.scopes });
    },
  );
}

/**
 * The remembered client first (one store round trip on PostgreSQL: docs/architecture.md, Hot paths); it answers
 * only a clean success. Anything else takes the general path, which reads the client afresh and gives the errors.
 */
export const clientCredentialsGrant: Grant = (deps, request) => {
  // Who the request says it is, read once for both paths. A malformed claim is the answer, as the general path
  // would give it first, before any store read.
  const presented = presentedClient(request.authorization, request.params);
  if (presented instanceof OAuthError) return Promise.resolve(presented);
  const general = () => authenticatedContext(deps, request, presented).then((context) => (context instanceof OAuthError ? context : issueForClient(context)));
  // Not async: the hot path is one promise (the store's), not one per layer (docs/architecture.md, Hot paths).
  const remembered = clientCredentialsAsRemembered(deps, presented, request.params);
  return remembered === undefined ? general() : remembered.then((minted) => minted ?? general());
};
