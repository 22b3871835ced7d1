// grant_type=client_credentials (RFC 6749 §4.4): a token for the client's service principal, with the
// requested scopes echoed and no refresh token. `offline_access` may be asked for (the Python platform SDK's
// ConfidentialClientAuth appends it to every scope list, CONTRACTS §10): granted as asked, even when the
// client's allowed_scopes does not list it, and still no refresh token.
import { invalidGrant, invalidScope } from '../../../errors.js';
import { DEFAULT_REALM } from '../../../seed/schema.js';
import { stableUuid } from '../../../ids.js';
import type { ClientRecord, UserRecord } from '../../../store/store.js';
import { mintAccessToken } from '../access-tokens.js';
import { OFFLINE_ACCESS, checkScopes } from '../scopes.js';
import type { Grant } from './grant.js';

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
  const asked = (params.scope ?? '').split(' ');
  const offline = asked.includes(OFFLINE_ACCESS);
  const requested = checkScopes(client, offline ? asked.filter((s) => s !== OFFLINE_ACCESS).join(' ') : params.scope);
  if ('problem' in requested) throw invalidScope(requested.problem);
  // In the order asked, offline_access where it was.
  if (offline) requested.scopes = [...new Set(asked)].filter((s) => s === OFFLINE_ACCESS || requested.scopes.includes(s));
  const principal = await store.users.servicePrincipalFor(client.clientId, () => newServicePrincipal(client));
  if (!principal.active) throw invalidGrant(`The service user of the client "${client.clientId}" is deactivated.`);
  return mintAccessToken({ store, clock }, { principal, clientId: client.clientId, scopes: requested.scopes });
};
