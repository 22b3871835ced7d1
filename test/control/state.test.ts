// State export (CONTRACTS §7): the state as a seed document that --config accepts, round-tripping to an equal state.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildTestApp } from '../helpers/app.js';

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
    connections: [{ rid: 'ri.magritte..source.c1', display_name: 'Weather', parent_folder_rid: 'ri.compass.main.folder.f', domains: [{ host: 'api.test', port: 8443, scheme: 'HTTPS' }] }],
    ontologies: [{ api_name: 'shop', display_name: 'Shop', description: 'A shop', queries: [{ api_name: 'count', result: { n: 1 } }, { api_name: 'nothing', result: null }] }],
    compute_modules: {
      runtimes: [{ runtime_id: 'rt-1', module_auth_token: 'module-token-0123456789' }],
      deployed_apps: [{ deployed_app_rid: 'ri.foundry.main.deployed-app.a1', runtime_id: 'rt-1', display_name: 'App' }],
    },
  },
};

async function exportJson(app: Awaited<ReturnType<typeof buildTestApp>>['app']) {
  const res = await app.inject({ url: '/_emulate/platform/state' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  return res.json() as { platform: Record<string, unknown> };
}

describe('state export', () => {
  it('round-trips: export, start a second app with it, export again: equal, including runtime changes', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    await app.inject({ method: 'PUT', url: '/_emulate/platform/users/carol', payload: { display_name: 'Carol' } });
    await app.inject({ method: 'POST', url: '/_emulate/platform/users/alice/deactivate' });
    await app.inject({ method: 'PUT', url: '/_emulate/platform/oauth-clients/late', payload: { client_secret: 'late-secret', redirect_uris: ['http://127.0.0.1/cb'] } });
    await app.inject({ method: 'PUT', url: '/_emulate/platform/ontologies/shop/queries/count', payload: { result: [1, 2, 3] } });
    await app.inject({ method: 'POST', url: '/_emulate/platform/compute-modules/runtimes', payload: { runtimeId: 'rt-2', moduleAuthToken: 'module-token-abcdefghij' } });

    const first = await exportJson(app);
    expect(first.platform).toMatchObject({
      users: expect.arrayContaining([expect.objectContaining({ username: 'alice', active: false }), expect.objectContaining({ username: 'carol', display_name: 'Carol' })]),
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
    expect(parse(yaml.body)).toEqual(await exportJson(app));
    const asked = await app.inject({ url: '/_emulate/platform/state?format=yaml' });
    expect(asked.body).toBe(yaml.body);
  });

  it('never exports a connection secret value', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    await app.inject({ method: 'PUT', url: '/_emulate/platform/connections/ri.magritte..source.c1', payload: { display_name: 'W', parent_folder_rid: 'ri.f', secrets: { k: 'conn-secret-value-987' } } });
    const res = await app.inject({ url: '/_emulate/platform/state' });
    expect(res.body).not.toContain('conn-secret-value-987');
  });
});
