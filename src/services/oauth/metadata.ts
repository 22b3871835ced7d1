// RFC 8414 authorization server metadata, served at /.well-known/oauth-authorization-server/idp.
import { ALL_GRANT_TYPES } from '../../platform-constants.js';
import { KNOWN_SCOPES } from './scopes.js';

export const OAUTH_BASE = '/idp/api/oauth2';
export const METADATA_PATH = '/.well-known/oauth-authorization-server/idp';

export const issuerOf = (baseUrl: string): string => `${baseUrl}/idp`;

export function metadata(baseUrl: string) {
  const endpoint = (name: string) => `${baseUrl}${OAUTH_BASE}/${name}`;
  const clientAuth = ['client_secret_basic', 'client_secret_post', 'none'];
  return {
    issuer: issuerOf(baseUrl),
    authorization_endpoint: endpoint('authorize'),
    token_endpoint: endpoint('token'),
    revocation_endpoint: endpoint('revoke_token'),
    introspection_endpoint: endpoint('introspect'),
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: [...ALL_GRANT_TYPES],
    code_challenge_methods_supported: ['S256', 'plain'],
    token_endpoint_auth_methods_supported: clientAuth,
    revocation_endpoint_auth_methods_supported: clientAuth,
    introspection_endpoint_auth_methods_supported: clientAuth,
    scopes_supported: KNOWN_SCOPES,
  };
}
