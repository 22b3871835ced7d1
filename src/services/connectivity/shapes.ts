// Wire shapes (the SDK's Connection and RestConnectionConfiguration, read form). Built from the record, whose
// domains hold secret names only; secret values are never read here, so none can leave through a response.
import type { ConnectionRecord, DomainAuthRecord, DomainRecord } from '../../store/store.js';
import { additionalSecretNames } from './secrets.js';

const secretName = (name: string) => ({ type: 'asSecretName' as const, value: name });

function authWire(auth: DomainAuthRecord) {
  switch (auth.type) {
    case 'bearerToken':
      return { type: auth.type, bearerToken: secretName(auth.bearerToken) };
    case 'apiKey':
      return { type: auth.type, location: { ...auth.location }, apiKey: secretName(auth.apiKey) };
    case 'basic':
      return { type: auth.type, username: auth.username, password: secretName(auth.password) };
    case 'oauth2':
      return { type: auth.type };
  }
}

function domainWire(domain: DomainRecord) {
  return {
    host: domain.host,
    ...(domain.port !== undefined ? { port: domain.port } : {}),
    ...(domain.scheme !== undefined ? { scheme: domain.scheme } : {}),
    ...(domain.auth !== undefined ? { auth: authWire(domain.auth) } : {}),
  };
}

/** `RestConnectionConfiguration` with `type: "rest"`; `additionalSecrets` only when there is at least one. */
export function configurationWire(connection: ConnectionRecord) {
  const names = additionalSecretNames(connection);
  return {
    type: 'rest' as const,
    domains: connection.domains.map(domainWire),
    ...(names.length > 0 ? { additionalSecrets: { type: 'asSecretsNames' as const, secretNames: names } } : {}),
    ...(connection.oauth2ClientRid !== undefined ? { oauth2ClientRid: connection.oauth2ClientRid } : {}),
  };
}

export function connectionWire(connection: ConnectionRecord) {
  return {
    rid: connection.rid,
    parentFolderRid: connection.parentFolderRid,
    displayName: connection.displayName,
    exportSettings: { exportsEnabled: false, exportEnabledWithoutMarkingsValidation: false },
    worker: { type: connection.worker.type, networkEgressPolicyRids: [...connection.worker.networkEgressPolicyRids] },
    configuration: configurationWire(connection),
  };
}
