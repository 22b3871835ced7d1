// Conformance: the platform's TypeScript SDK (@osdk/client createPlatformClient + @osdk/foundry.connectivity,
// pinned in package.json) against a live server. create, get and getConfiguration are beta in the SDK and are
// called with `preview: true` as a real app must; updateSecrets is public and takes no query parameters.
import { describe, expect, it } from 'vitest';
import { createPlatformClient } from '@osdk/client';
import { Connections, type CreateConnectionRequest } from '@osdk/foundry.connectivity';
import { controlToken, liveEmulator, recordingFetch } from './conformance-helpers.js';

const READ = 'api:connectivity-connection-read';
const WRITE = 'api:connectivity-connection-write';
const SECRETS = ['bearer-value-d41d8cd9', 'client-secret-8f00b204', 'webhook-key-e9800998', 'rotated-value-ecf8427e'];

const url = liveEmulator(`
platform:
  users: [{ username: dev }]
  connections:
    - { rid: ri.magritte..source.seeded, display_name: Seeded, parent_folder_rid: ri.compass.main.folder.f, domains: [{ host: seeded.example, scheme: HTTPS }] }
`);

async function client(scopes: string[]) {
  const token = await controlToken(url(), 'dev', scopes);
  const recorder = recordingFetch();
  return { client: createPlatformClient(url(), async () => token, undefined, recorder.fetch), exchanges: recorder.exchanges };
}

function createRequest(scheme: 'HTTP' | 'HTTPS' = 'HTTPS'): CreateConnectionRequest {
  return {
    parentFolderRid: 'ri.compass.main.folder.apps',
    displayName: 'Partner API',
    worker: { type: 'foundryWorker', networkEgressPolicyRids: [] },
    configuration: {
      type: 'rest',
      domains: [
        { host: 'api.partner.example', port: 443, scheme, auth: { type: 'bearerToken', bearerToken: { type: 'asPlaintextValue', value: SECRETS[0]! } } },
      ],
      additionalSecrets: { type: 'asSecretsWithPlaintextValues', secrets: { clientSecret: SECRETS[1]!, webhookKey: SECRETS[2]! } },
    },
  };
}
const request = createRequest();

describe('platform SDK: connectivity', () => {
  it('create, get, getConfiguration and updateSecrets round-trip without a secret value ever coming back', async () => {
    const { client: c, exchanges } = await client([READ, WRITE]);

    const created = await Connections.create(c, request, { preview: true });
    expect(created.rid).toMatch(/^ri\.magritte\.\.source\./);
    expect(created).toMatchObject({
      parentFolderRid: 'ri.compass.main.folder.apps',
      displayName: 'Partner API',
      exportSettings: { exportsEnabled: false, exportEnabledWithoutMarkingsValidation: false },
      worker: { type: 'foundryWorker', networkEgressPolicyRids: [] },
    });

    const fetched = await Connections.get(c, created.rid, { preview: true });
    expect(fetched).toEqual(created);

    const configuration = await Connections.getConfiguration(c, created.rid, { preview: true });
    expect(configuration.type).toBe('rest');
    if (configuration.type !== 'rest') throw new Error('not rest');
    expect(configuration.domains).toEqual([
      {
        host: 'api.partner.example',
        port: 443,
        scheme: 'HTTPS',
        auth: { type: 'bearerToken', bearerToken: { type: 'asSecretName', value: 'domains[0].auth.bearerToken' } },
      },
    ]);
    expect(configuration.additionalSecrets).toEqual({ type: 'asSecretsNames', secretNames: ['clientSecret', 'webhookKey'] });

    // The SDK's void call resolves to undefined only on a 204: a 200 with a body would come back as that body.
    await expect(Connections.updateSecrets(c, created.rid, { secrets: { webhookKey: SECRETS[3]!, region: 'eu' } })).resolves.toBeUndefined();
    const after = await Connections.getConfiguration(c, created.rid, { preview: true });
    expect(after.type === 'rest' && after.additionalSecrets).toEqual({ type: 'asSecretsNames', secretNames: ['clientSecret', 'region', 'webhookKey'] });

    expect(exchanges.map((e) => [e.method, e.status])).toEqual([
      ['POST', 200],
      ['GET', 200],
      ['GET', 200],
      ['POST', 204],
      ['GET', 200],
    ]);
    expect(exchanges[0]!.url).toContain('preview=true');
    expect(exchanges[3]!.body).toBe('');
    const everything = exchanges.map((e) => e.body).join('\n');
    for (const secret of SECRETS) expect(everything).not.toContain(secret);
  });

  it('reads a seeded connection', async () => {
    const { client: c } = await client([READ]);
    const seeded = await Connections.get(c, 'ri.magritte..source.seeded', { preview: true });
    expect(seeded.configuration).toEqual({ type: 'rest', domains: [{ host: 'seeded.example', scheme: 'HTTPS' }] });
  });

  it('throws PalantirApiError 404 ConnectionNotFound for an unknown rid', async () => {
    const { client: c } = await client([READ, WRITE]);
    for (const call of [
      () => Connections.get(c, 'ri.magritte..source.missing', { preview: true }),
      () => Connections.getConfiguration(c, 'ri.magritte..source.missing', { preview: true }),
      () => Connections.updateSecrets(c, 'ri.magritte..source.missing', { secrets: { a: SECRETS[3]! } }),
    ]) {
      const error = (await call().then(
        () => undefined,
        (e: unknown) => e,
      )) as Record<string, unknown> | undefined;
      expect(error?.constructor.name).toBe('PalantirApiError');
      expect(error).toMatchObject({
        statusCode: 404,
        errorCode: 'NOT_FOUND',
        errorName: 'ConnectionNotFound',
        errorDescription: 'The given Connection could not be found.',
        parameters: { connectionRid: 'ri.magritte..source.missing' },
      });
      expect(error!.errorInstanceId).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('surfaces validation and scope errors with the SDK error names', async () => {
    const { client: c } = await client([READ, WRITE]);
    await expect(Connections.create(c, createRequest('HTTP'), { preview: true })).rejects.toMatchObject({
      statusCode: 400,
      errorName: 'DomainMustUseHttpsWithAuthentication',
    });
    await expect(Connections.create(c, { ...request, worker: { type: 'unknownWorker' } }, { preview: true })).rejects.toMatchObject({
      statusCode: 400,
      errorName: 'UnknownWorkerCannotBeUsedForCreatingOrUpdatingConnections',
    });

    const { client: readOnly } = await client([READ]);
    await expect(Connections.create(readOnly, request, { preview: true })).rejects.toMatchObject({
      statusCode: 403,
      errorName: 'CreateConnectionPermissionDenied',
    });
    await expect(Connections.updateSecrets(readOnly, 'ri.magritte..source.seeded', { secrets: { a: 'b' } })).rejects.toMatchObject({
      statusCode: 403,
      errorName: 'UpdateSecretsForConnectionPermissionDenied',
      parameters: { connectionRid: 'ri.magritte..source.seeded' },
    });
    const { client: writeOnly } = await client([WRITE]);
    await expect(Connections.getConfiguration(writeOnly, 'ri.magritte..source.seeded', { preview: true })).rejects.toMatchObject({
      statusCode: 403,
      errorName: 'GetConfigurationPermissionDenied',
    });
  });
});
