// The contents of the files a module reads for its sources (docs/functions.md, "Module environment"), from the
// seeded connections, in the form both compute-module SDKs read them:
// - SOURCE_CREDENTIALS: `{sourceApiName: {secretName: value}}` (TypeScript `getCredential(source, name)`, Python
//   `context.sources` / `get_source_secret`): every secret of the connection by its name.
// - SOURCE_CONFIGURATIONS_PATH: `{sourceApiName: {secrets, httpConnectionConfig: {url, authHeaders,
//   queryParameters}, sourceConfiguration}}` (Python's MountedSourceConfig; the TypeScript SDK 0.2.7 reads no
//   such file). `sourceConfiguration` is the connection's configuration as the connectivity API shows it
//   (secret names, never values); `authHeaders` and `queryParameters` carry the first domain's auth resolved.
import type { ConnectionRecord, DomainRecord } from '../../../store/store.js';
import { configurationWire } from '../../connectivity/shapes.js';

function httpConnectionConfig(domain: DomainRecord, secrets: Record<string, string>) {
  const scheme = (domain.scheme ?? 'HTTPS').toLowerCase();
  const authHeaders: Record<string, string> = {};
  const queryParameters: Record<string, string> = {};
  const auth = domain.auth;
  const value = (name: string) => secrets[name] ?? '';
  if (auth?.type === 'bearerToken') authHeaders.Authorization = `Bearer ${value(auth.bearerToken)}`;
  else if (auth?.type === 'basic') authHeaders.Authorization = `Basic ${Buffer.from(`${auth.username}:${value(auth.password)}`).toString('base64')}`;
  else if (auth?.type === 'apiKey') {
    if (auth.location.type === 'header') authHeaders[auth.location.headerName] = value(auth.apiKey);
    else queryParameters[auth.location.queryParameterName] = value(auth.apiKey);
  }
  return { url: `${scheme}://${domain.host}${domain.port !== undefined ? `:${domain.port}` : ''}`, authHeaders, queryParameters };
}

export interface SourceFiles {
  credentials: Record<string, Record<string, string>>;
  configurations: Record<string, Record<string, unknown>>;
}

/** Both files' contents for the app's sources (each with its connection). */
export function sourceFiles(sources: Array<{ apiName: string; connection: ConnectionRecord }>): SourceFiles {
  const files: SourceFiles = { credentials: {}, configurations: {} };
  for (const { apiName, connection } of sources) {
    const secrets = { ...connection.secrets };
    files.credentials[apiName] = secrets;
    const domain = connection.domains[0];
    files.configurations[apiName] = {
      secrets,
      ...(domain ? { httpConnectionConfig: httpConnectionConfig(domain, secrets) } : {}),
      sourceConfiguration: configurationWire(connection),
    };
  }
  return files;
}
