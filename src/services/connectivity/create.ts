// A create request to a ConnectionRecord: every check of docs/contracts.md §4, in the order a reader would fix them.
// Secret values go into `secrets`; the record's domains refer to them by name only.
import type { Static } from '@sinclair/typebox';
import type { ApiKeyLocationRecord, ConnectionRecord, DomainAuthRecord, DomainRecord, WorkerRecord } from '../../store/store.js';
import { fieldPath } from '../../field-path.js';
import { check, invalidField, isBlank, tagOf, type Path } from './check.js';
import {
  ApiKeyAuth,
  BasicAuth,
  BearerTokenAuth,
  FoundryWorker,
  HeaderLocation,
  OAuth2Auth,
  PlaintextValue,
  QueryParameterLocation,
  RestConfiguration,
  SecretsWithPlaintextValues,
  type CreateConnectionBody,
} from './schemas.js';
import {
  additionalSecretsMustBePlaintextMap,
  connectionTypeNotSupported,
  domainMustUseHttpsWithAuthentication,
  encryptedPropertyMustBePlaintext,
  hostNameCannotHaveProtocolOrPort,
  propertyCannotBeBlank,
  propertyCannotBeEmpty,
  unknownWorkerCannotBeUsed,
} from './errors.js';
import { checkSecretMap, domainSecretName } from './secrets.js';

type Body = Static<typeof CreateConnectionBody>;

export function connectionFromRequest(body: Body, rid: string): ConnectionRecord {
  if (isBlank(body.displayName)) throw propertyCannotBeBlank('displayName');
  if (isBlank(body.parentFolderRid)) throw propertyCannotBeBlank('parentFolderRid');
  const worker = workerFrom(body);

  if (body.configuration.type !== 'rest') throw connectionTypeNotSupported(body.configuration.type);
  const configuration = check(RestConfiguration, body.configuration, ['configuration']);
  if (configuration.domains.length === 0) throw propertyCannotBeEmpty('configuration.domains');

  const secrets: Record<string, string> = {};
  const domains = configuration.domains.map((d, i): DomainRecord => {
    const at = ['configuration', 'domains', i];
    if (isBlank(d.host)) throw propertyCannotBeBlank(fieldPath([...at, 'host']));
    if (!isBareHost(d.host)) throw hostNameCannotHaveProtocolOrPort(d.host);
    const domain: DomainRecord = { host: d.host };
    if (d.port !== undefined) domain.port = d.port;
    if (d.scheme !== undefined) domain.scheme = d.scheme;
    if (d.auth !== undefined) {
      domain.auth = authFrom(d.auth, [...at, 'auth'], (field, value) => {
        const name = domainSecretName(i, field);
        secrets[name] = value;
        return name;
      });
      // An omitted scheme means HTTPS, the platform's default.
      if ((d.scheme ?? 'HTTPS') !== 'HTTPS') throw domainMustUseHttpsWithAuthentication();
    }
    return domain;
  });

  if (configuration.additionalSecrets !== undefined) {
    const at = ['configuration', 'additionalSecrets'];
    const type = tagOf(configuration.additionalSecrets, at, ['asSecretsWithPlaintextValues', 'asSecretsNames']);
    if (type === 'asSecretsNames') throw additionalSecretsMustBePlaintextMap();
    const additional = check(SecretsWithPlaintextValues, configuration.additionalSecrets, at).secrets;
    checkSecretMap(additional, [...at, 'secrets']);
    for (const [name, value] of Object.entries(additional)) {
      if (name in secrets) throw invalidField([...at, 'secrets', name], 'is the name of a domain auth secret; choose another name');
      secrets[name] = value;
    }
  }

  const record: ConnectionRecord = { rid, displayName: body.displayName, parentFolderRid: body.parentFolderRid, worker, domains, secrets };
  if (configuration.oauth2ClientRid !== undefined) record.oauth2ClientRid = configuration.oauth2ClientRid;
  return record;
}

/** `worker`, or its newer name `runtimePlatform` (docs/contracts.md §10): the same shapes, at most one of the two. */
function workerFrom(body: Body): WorkerRecord {
  if (body.worker !== undefined && body.runtimePlatform !== undefined) {
    throw invalidField(['runtimePlatform'], 'is the newer name of worker; give one of the two');
  }
  const field = body.worker !== undefined ? 'worker' : 'runtimePlatform';
  const worker = body.worker ?? body.runtimePlatform;
  if (worker === undefined) return { type: 'foundryWorker', networkEgressPolicyRids: [] };
  const type = tagOf(worker, [field], ['foundryWorker', 'unknownWorker']);
  if (type === 'unknownWorker') throw unknownWorkerCannotBeUsed();
  const checked = check(FoundryWorker, worker, [field]);
  return { type: 'foundryWorker', networkEgressPolicyRids: checked.networkEgressPolicyRids ?? [] };
}

/** A host name alone: no scheme (`https://`), port (`:443`), path or whitespace. */
function isBareHost(host: string): boolean {
  return !/^[a-z][a-z0-9+.-]*:\/\//i.test(host) && !/[:/\s?#@]/.test(host);
}

/** Stores each plaintext secret through `keep`, which returns the name the record refers to it by. */
type Keep = (field: string, value: string) => string;

function authFrom(auth: unknown, at: Path, keep: Keep): DomainAuthRecord {
  switch (tagOf(auth, at, ['bearerToken', 'apiKey', 'basic', 'oauth2'])) {
    case 'bearerToken': {
      const a = check(BearerTokenAuth, auth, at);
      return { type: 'bearerToken', bearerToken: keep('bearerToken', plaintext(a.bearerToken, [...at, 'bearerToken'])) };
    }
    case 'apiKey': {
      const a = check(ApiKeyAuth, auth, at);
      const location = locationFrom(a.location, [...at, 'location']);
      return { type: 'apiKey', location, apiKey: keep('apiKey', plaintext(a.apiKey, [...at, 'apiKey'])) };
    }
    case 'basic': {
      const a = check(BasicAuth, auth, at);
      if (isBlank(a.username)) throw propertyCannotBeBlank(fieldPath([...at, 'username']));
      return { type: 'basic', username: a.username, password: keep('password', plaintext(a.password, [...at, 'password'])) };
    }
    case 'oauth2':
      check(OAuth2Auth, auth, at);
      return { type: 'oauth2' };
  }
}

function locationFrom(location: unknown, at: Path): ApiKeyLocationRecord {
  if (tagOf(location, at, ['header', 'queryParameter']) === 'header') {
    return { type: 'header', headerName: check(HeaderLocation, location, at).headerName };
  }
  return { type: 'queryParameter', queryParameterName: check(QueryParameterLocation, location, at).queryParameterName };
}

/** The value of an EncryptedProperty. A new connection has no stored secret that a name could refer to. */
function plaintext(property: unknown, at: Path): string {
  if (tagOf(property, at, ['asPlaintextValue', 'asSecretName']) === 'asSecretName') throw encryptedPropertyMustBePlaintext(fieldPath(at));
  const { value } = check(PlaintextValue, property, at);
  if (isBlank(value)) throw propertyCannotBeBlank(fieldPath(at));
  return value;
}
