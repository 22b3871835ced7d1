// State export (docs/contracts.md §7): the state as a seed document that --config accepts, round-tripping to an equal state.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildTestApp } from '../helpers/app.js';
import { CODECS, parseTestSeed, type TestSeed } from '../helpers/seed.js';
import { parseSeed } from '../../src/seed/load.js';

const SEED = {
  platform: {
    users: [
      { username: 'alice', display_name: 'Alice A', email: 'alice@example.test', given_name: 'Alice', attributes: { team: ['blue'] } },
      { username: 'svc-user', principal_type: 'service', oauth_client_id: 'svc' },
    ],
    oauth_clients: [
      { client_id: 'web', redirect_uris: ['http://localhost:3000/cb'], allowed_scopes: ['api:admin-read'] },
      { client_id: 'svc', client_secret: 'svc-secret-value', grant_types: ['client_credentials'] },
    ],
    enrollment: { rid: 'ri.enrollment..enrollment.e1', name: 'Test Enrollment' },
    connections: [
      {
        rid: 'ri.magritte..source.c1',
        display_name: 'Weather',
        parent_folder_rid: 'ri.compass.main.folder.f',
        domains: [{ host: 'api.test', port: 8443, scheme: 'HTTPS' }],
      },
    ],
    ontologies: [
      {
        api_name: 'shop',
        display_name: 'Shop',
        description: 'A shop',
        queries: [
          { api_name: 'count', result: { n: 1 } },
          { api_name: 'nothing', result: null },
        ],
      },
    ],
    compute_modules: {
      runtimes: [{ runtime_id: 'rt-1', module_auth_token: 'module-token-0123456789' }],
      deployed_apps: [{ deployed_app_rid: 'ri.foundry.main.deployed-app.a1', runtime_id: 'rt-1', display_name: 'App' }],
    },
  },
};

async function exportJson(app: Awaited<ReturnType<typeof buildTestApp>>['app'], query = '?secrets=include') {
  const res = await app.inject({ url: `/_emulate/platform/state${query}` });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  return res.json() as { platform: Record<string, unknown>; secretsOmitted?: string[] };
}

describe('state export', () => {
  it('round-trips: export, start a second app with it, export again: equal, including runtime changes', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    await app.inject({ method: 'PUT', url: '/_emulate/platform/users/carol', payload: { display_name: 'Carol' } });
    await app.inject({ method: 'POST', url: '/_emulate/platform/users/alice/deactivate' });
    await app.inject({
      method: 'PUT',
      url: '/_emulate/platform/oauth-clients/late',
      payload: { client_secret: 'late-secret', redirect_uris: ['http://127.0.0.1/cb'] },
    });
    await app.inject({ method: 'PUT', url: '/_emulate/platform/ontologies/shop/queries/count', payload: { result: [1, 2, 3] } });
    await app.inject({
      method: 'POST',
      url: '/_emulate/platform/compute-modules/runtimes',
      payload: { runtimeId: 'rt-2', moduleAuthToken: 'module-token-abcdefghij' },
    });

    const first = await exportJson(app);
    expect(first.platform).toMatchObject({
      users: expect.arrayContaining([
        expect.objectContaining({ username: 'alice', active: false }),
        expect.objectContaining({ username: 'carol', display_name: 'Carol' }),
      ]),
      oauth_clients: expect.arrayContaining([expect.objectContaining({ client_id: 'late', client_secret: 'late-secret' })]),
      enrollment: { rid: 'ri.enrollment..enrollment.e1', name: 'Test Enrollment' },
      compute_modules: { runtimes: expect.arrayContaining([{ runtime_id: 'rt-2', module_auth_token: 'module-token-abcdefghij' }]) },
    });
    const second = await buildTestApp({ seed: first });
    expect(second.summary.warnings.filter((w) => !/scope/.test(w))).toEqual([]);
    expect(await exportJson(second.app)).toEqual(first);
  });

  it('answers YAML when the request accepts YAML, with the same document', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const yaml = await app.inject({ url: '/_emulate/platform/state', headers: { accept: 'application/yaml' } });
    expect(yaml.headers['content-type']).toMatch(/^application\/yaml/);
    expect(yaml.body.startsWith('# platform-emulator state export')).toBe(true);
    const json = await exportJson(app, '');
    expect(parse(yaml.body)).toEqual({ platform: json.platform });
    expect(yaml.body).toContain(`# secrets omitted: ${json.secretsOmitted!.join(', ')}\n`);
    const asked = await app.inject({ url: '/_emulate/platform/state?format=yaml' });
    expect(asked.body).toBe(yaml.body);
  });

  it('leaves secrets out by default and names each one; ?secrets=include writes them', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const bare = await exportJson(app, '');
    expect(bare.secretsOmitted).toEqual(['platform.oauth_clients[1].client_secret', 'platform.compute_modules.runtimes[0].module_auth_token']);
    expect(JSON.stringify(bare)).not.toContain('svc-secret-value');
    expect(JSON.stringify(bare)).not.toContain('module-token-0123456789');
    const full = await exportJson(app);
    expect(full.secretsOmitted).toBeUndefined();
    expect(JSON.stringify(full)).toContain('svc-secret-value');
  });

  it('refuses to import an export whose secrets were left out, naming each, unless told', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const yaml = (await app.inject({ url: '/_emulate/platform/state?format=yaml' })).body;
    expect(() => parseTestSeed(yaml)).toThrow(
      /left out 2 secrets \(platform\.oauth_clients\[1\]\.client_secret, platform\.compute_modules\.runtimes\[0\]\.module_auth_token\)/,
    );
    const json = (await app.inject({ url: '/_emulate/platform/state' })).body;
    expect(() => parseTestSeed(json)).toThrow(/--allow-missing-secrets/);
    const accepted = parseSeed(json, 'export.json', CODECS, { allowMissingSecrets: true }) as TestSeed;
    expect(accepted.oauth_clients.find((c: { client_id: string }) => c.client_id === 'svc').client_secret).toBeUndefined();
  });

  it('never exports a connection secret value', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    await app.inject({
      method: 'PUT',
      url: '/_emulate/platform/connections/ri.magritte..source.c1',
      payload: { display_name: 'W', parent_folder_rid: 'ri.f', secrets: { k: 'conn-secret-value-987' } },
    });
    const res = await app.inject({ url: '/_emulate/platform/state' });
    expect(res.body).not.toContain('conn-secret-value-987');
  });
});
