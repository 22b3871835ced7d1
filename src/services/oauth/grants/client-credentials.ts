// grant_type=client_credentials (RFC 6749 §4.4): a token for the client's service principal, with the
// requested scopes echoed and no refresh token.
import { invalidGrant, invalidScope } from '../../../errors.js';
import { DEFAULT_REALM } from '../../../seed/schema.js';
import { stableUuid } from '../../../ids.js';
import type { ClientRecord, UserRecord } from '../../../store/store.js';
import { mintAccessToken } from '../access-tokens.js';
import { checkScopes } from '../scopes.js';
import type { Grant } from './grant.js';
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

export const clientCredentialsGrant: Grant = async ({ store, clock, client, params }) => {
  const requested = checkScopes(client, params.scope);
  if ('problem' in requested) {
    throw invalidScope(requested.problem).because(`${requested.problem} The client ${quote(client.clientId)} may ask for ${quoteAll(client.allowedScopes, 'any scope')}.`);
  }
  const principal = await store.users.servicePrincipalFor(client.clientId, () => newServicePrincipal(client));
  if (!principal.active) {
    throw invalidGrant(`The service user of the client "${client.clientId}" is deactivated.`).because(
      `The service user ${quote(principal.username)} that client_credentials tokens of ${quote(client.clientId)} act as is deactivated.`,
    );
  }
  return mintAccessToken({ store, clock }, { principal, clientId: client.clientId, scopes: requested.scopes });
};
