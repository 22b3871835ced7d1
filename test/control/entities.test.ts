// Runtime changes without a restart (docs/contracts.md §7): users, OAuth clients, connections, query results.
import { describe, expect, it } from 'vitest';
import { bearer, buildTestApp, mintToken } from '../helpers/app.js';
import { TOKEN, basic, postForm } from '../oauth/flow.js';

describe('runtime control of entities', () => {
  it('creates a user that can then get tokens, and updates it keeping its tokens valid', async () => {
    const { app } = await buildTestApp();
    const created = await app.inject({ method: 'PUT', url: '/_emulate/platform/users/bob', payload: { display_name: 'Bob', email: 'bob@example.test' } });
    expect(created.statusCode).toBe(200);
    expect(created.json()).toMatchObject({
      created: true,
      user: { username: 'bob', display_name: 'Bob', email: 'bob@example.test', active: true, principal_type: 'human' },
    });
    const token = await mintToken(app, 'bob', ['api:admin-read']);
    const updated = await app.inject({ method: 'PUT', url: '/_emulate/platform/users/bob', payload: { display_name: 'Robert', email: 'bob@example.test' } });
    expect(updated.json()).toMatchObject({ created: false, user: { display_name: 'Robert' } });
    const me = await app.inject({ url: '/api/v2/admin/users/getCurrent', headers: bearer(token) });
    expect(me.json()).toMatchObject({ username: 'bob', attributes: { 'idp:email:primary': ['bob@example.test'] } });
    expect((await app.inject({ url: '/idp/api/me', headers: bearer(token) })).json()).toMatchObject({ username: 'bob', displayName: 'Robert' });
  });

  it('refuses a bad user body with the field named, as the seed would', async () => {
    const { app } = await buildTestApp();
    const res = await app.inject({ method: 'PUT', url: '/_emulate/platform/users/bob', payload: { principal_type: 'robot', colour: 'red' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ errorName: 'InvalidArgument', parameters: { field: expect.stringMatching(/principal_type|colour/) } });
    expect(res.json().errorDescription).toMatch(/principal_type: must be one of: human, service/);
    expect(res.json().errorDescription).toMatch(/colour: unknown key/);
  });

  it('creates and updates an OAuth client, never answering its secret', async () => {
    const { app } = await buildTestApp({ seed: { platform: { oauth_clients: [{ client_id: 'seeded' }] } } });
    const res = await app.inject({
      method: 'PUT',
      url: '/_emulate/platform/oauth-clients/svc',
      payload: { client_secret: 'svc-secret-xyz', grant_types: ['client_credentials'], allowed_scopes: ['api:admin-read'] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('svc-secret-xyz');
    expect(res.json()).toEqual({
      created: true,
      client: { client_id: 'svc', name: 'svc', redirect_uris: [], grant_types: ['client_credentials'], allowed_scopes: ['api:admin-read'], public: false },
    });
    const ok = await postForm(app, TOKEN, { grant_type: 'client_credentials', scope: 'api:admin-read' }, basic('svc', 'svc-secret-xyz'));
    expect(ok.statusCode).toBe(200);
    await app.inject({
      method: 'PUT',
      url: '/_emulate/platform/oauth-clients/svc',
      payload: { client_secret: 'rotated-secret', grant_types: ['client_credentials'] },
    });
    expect((await postForm(app, TOKEN, { grant_type: 'client_credentials' }, basic('svc', 'svc-secret-xyz'))).statusCode).toBe(401);
    expect((await postForm(app, TOKEN, { grant_type: 'client_credentials', scope: 'anything' }, basic('svc', 'rotated-secret'))).statusCode).toBe(200);
  });

  it('creates a connection with secrets (names answered, never values) and updates it keeping them', async () => {
    const { app } = await buildTestApp();
    const rid = 'ri.magritte..source.11111111-2222-4333-8444-555555555555';
    const res = await app.inject({
      method: 'PUT',
      url: `/_emulate/platform/connections/${rid}`,
      payload: {
        display_name: 'Weather',
        parent_folder_rid: 'ri.compass.main.folder.x',
        domains: [{ host: 'api.weather.test' }],
        secrets: { apiKey: 'conn-secret-123' },
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('conn-secret-123');
    expect(res.json()).toMatchObject({ created: true, connection: { rid, display_name: 'Weather', secret_names: ['apiKey'] } });
    const token = await mintToken(app, 'admin', ['api:connectivity-connection-read']);
    const config = await app.inject({ url: `/api/v2/connectivity/connections/${rid}/getConfiguration?preview=true`, headers: bearer(token) });
    expect(config.json()).toMatchObject({ type: 'rest', domains: [{ host: 'api.weather.test' }], additionalSecrets: { secretNames: ['apiKey'] } });
    const renamed = await app.inject({
      method: 'PUT',
      url: `/_emulate/platform/connections/${rid}`,
      payload: { display_name: 'Weather 2', parent_folder_rid: 'ri.compass.main.folder.x' },
    });
    expect(renamed.json()).toMatchObject({
      created: false,
      connection: { display_name: 'Weather 2', domains: [{ host: 'api.weather.test' }], secret_names: ['apiKey'] },
    });
  });

  it('sets a query result that the next execution answers, and names the ontologies when one is unknown', async () => {
    const seed = { platform: { ontologies: [{ api_name: 'shop', display_name: 'Shop', queries: [{ api_name: 'count', result: 1 }] }] } };
    const { app } = await buildTestApp({ seed });
    const res = await app.inject({ method: 'PUT', url: '/_emulate/platform/ontologies/shop/queries/count', payload: { result: { value: 42 } } });
    expect(res.json()).toEqual({ created: false, ontology: 'shop', query: 'count', result: { value: 42 } });
    const token = await mintToken(app, 'admin', ['api:ontologies-read']);
    const run = await app.inject({ method: 'POST', url: '/api/v2/ontologies/shop/queries/count/execute', headers: bearer(token), payload: { parameters: {} } });
    expect(run.statusCode).toBe(200);
    expect(JSON.stringify(run.json())).toContain('42');
    const unknown = await app.inject({ method: 'PUT', url: '/_emulate/platform/ontologies/nope/queries/count', payload: { result: 1 } });
    expect(unknown.statusCode).toBe(404);
    expect(app.journal.list({ limit: 1 })[0]!.reason).toBe('No ontology with api name or rid "nope"; the ontologies are shop.');
  });
});
