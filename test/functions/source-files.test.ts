// The sources' file contents run-module writes (docs/functions.md, "Module environment"), from connection records:
// every secret by name in both files, the first domain's URL and auth resolved for Python's
// MountedSourceConfig, and the non-secret configuration with secret names only.
import { describe, expect, it } from 'vitest';
import type { ConnectionRecord } from '../../src/store/store.js';
import { sourceFiles } from '../../src/services/functions/environment/files.js';

const connection = (domain: ConnectionRecord['domains'][number], secrets: Record<string, string>): ConnectionRecord => ({
  rid: 'ri.magritte..source.x',
  displayName: 'X',
  parentFolderRid: 'ri.compass.main.folder.x',
  worker: { type: 'foundryWorker', networkEgressPolicyRids: [] },
  domains: [domain],
  secrets,
});

describe('source files', () => {
  it('a bearer token: the header resolved, every secret by name, the configuration with names only', () => {
    const c = connection(
      { host: 'api.example', scheme: 'HTTPS', auth: { type: 'bearerToken', bearerToken: 'domains[0].auth.bearerToken' } },
      {
        'domains[0].auth.bearerToken': 'tok-1',
        extra: 'x-2',
      },
    );
    const files = sourceFiles([{ apiName: 'api', connection: c }]);
    expect(files.credentials).toEqual({ api: { 'domains[0].auth.bearerToken': 'tok-1', extra: 'x-2' } });
    const config = files.configurations.api!;
    expect(config.httpConnectionConfig).toEqual({ url: 'https://api.example', authHeaders: { Authorization: 'Bearer tok-1' }, queryParameters: {} });
    expect(JSON.stringify(config.sourceConfiguration)).not.toContain('tok-1');
    expect(config.sourceConfiguration).toMatchObject({ type: 'rest', additionalSecrets: { type: 'asSecretsNames', secretNames: ['extra'] } });
  });

  it('an API key in a header or a query parameter, and basic auth', () => {
    const key = (location: { type: 'header'; headerName: string } | { type: 'queryParameter'; queryParameterName: string }) =>
      sourceFiles([
        { apiName: 'k', connection: connection({ host: 'h', port: 8443, scheme: 'HTTP', auth: { type: 'apiKey', location, apiKey: 'k' } }, { k: 'v' }) },
      ]).configurations.k!.httpConnectionConfig;
    expect(key({ type: 'header', headerName: 'X-Key' })).toEqual({ url: 'http://h:8443', authHeaders: { 'X-Key': 'v' }, queryParameters: {} });
    expect(key({ type: 'queryParameter', queryParameterName: 'key' })).toEqual({ url: 'http://h:8443', authHeaders: {}, queryParameters: { key: 'v' } });
    const basic = sourceFiles([
      { apiName: 'b', connection: connection({ host: 'h', auth: { type: 'basic', username: 'u', password: 'p' } }, { p: 'secret' }) },
    ]);
    expect(basic.configurations.b!.httpConnectionConfig).toMatchObject({
      authHeaders: { Authorization: `Basic ${Buffer.from('u:secret').toString('base64')}` },
    });
  });
});
