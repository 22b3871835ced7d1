// Facts of the platform that several services share, written once on the ground floor: the grant types an OAuth
// client may hold, and the realm and organization a user belongs to unless the seed says otherwise.
export const DEFAULT_REALM = 'platform-internal-realm';
export const DEFAULT_ORGANIZATION_RID = 'ri.organization.main.organization.default';
export const ALL_GRANT_TYPES = ['authorization_code', 'refresh_token', 'client_credentials'] as const;
/** Every token the service issues starts with this (access tokens; refresh tokens add `refresh_`). */
export const TOKEN_PREFIX = 'platform_';
