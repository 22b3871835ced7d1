// Store records in the seed's own shape (src/seed/schema.ts), for the state export and the control routes'
// answers. The inverse of src/seed/apply.ts: applying what these return gives the same records back.
import type { ClientRecord, ConnectionRecord, DeployedAppRecord, RuntimeRecord, UserRecord } from '../../store/store.js';

/** Drops the keys whose value is undefined, so that YAML and JSON show only what is set. */
function defined<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

export const userSeedOf = (u: UserRecord) =>
  defined({
    username: u.username,
    display_name: u.displayName,
    email: u.email,
    given_name: u.givenName,
    family_name: u.familyName,
    realm: u.realm,
    organization_rid: u.organizationRid,
    principal_type: u.principalType,
    active: u.active,
    oauth_client_id: u.oauthClientId,
    attributes: u.attributes,
  });

export const clientSeedOf = (c: ClientRecord) =>
  defined({
    client_id: c.clientId,
    client_secret: c.clientSecret,
    name: c.name,
    redirect_uris: c.redirectUris,
    grant_types: c.grantTypes,
    allowed_scopes: c.allowedScopes,
  });

/** Domains without their auth, and no secret: secret values never leave the service (CONTRACTS §4). */
export const connectionSeedOf = (c: ConnectionRecord) => ({
  rid: c.rid,
  display_name: c.displayName,
  parent_folder_rid: c.parentFolderRid,
  domains: c.domains.map((d) => defined({ host: d.host, port: d.port, scheme: d.scheme })),
});

// Ontologies: ontology-state.ts (they need the object store).

export const runtimeSeedOf = (r: RuntimeRecord) => ({ runtime_id: r.runtimeId, module_auth_token: r.moduleAuthToken });

export const deployedAppSeedOf = (a: DeployedAppRecord) =>
  defined({ deployed_app_rid: a.deployedAppRid, runtime_id: a.runtimeId, branch: a.branch, display_name: a.displayName, active: a.active });
