// The dashboard's read and act routes: exact shapes, and never a secret value in any of them.
import { describe, expect, it } from 'vitest';
import { bearer, buildTestApp, mintToken, platformError } from '../helpers/app.js';
import { ADDER, RUNTIME, RUNTIMES, TOKEN, harness, oauthError } from '../compute-modules/helpers.js';
import { preview } from '../../src/services/compute-modules/backstage.js';
import { ontologyDefinitions } from '../../src/services/ontologies/backstage/view.js';
import type { OntologyRecord, Store } from '../../src/store/store.js';

const SEED = {
  platform: {
    users: [
      { username: 'alice', display_name: 'Alice A', email: 'alice@example.com' },
      { username: 'bot', principal_type: 'service', oauth_client_id: 'pipeline' },
    ],
    oauth_clients: [
      { client_id: 'web', redirect_uris: ['http://localhost:3000/cb'], allowed_scopes: ['api:admin-read'] },
      { client_id: 'pipeline', client_secret: 'pipeline-secret-value', grant_types: ['client_credentials'] },
    ],
    connections: [
      { rid: 'ri.conn.1', display_name: 'Weather', parent_folder_rid: 'ri.folder.1', domains: [{ host: 'api.weather.test', port: 443, scheme: 'HTTPS' }] },
    ],
    ontologies: [{ api_name: 'onto', display_name: 'Onto', queries: [{ api_name: 'greet', result: { value: 'hi' } }] }],
  },
};

describe('listing routes', () => {
  it('lists users, clients (never a secret), connections (secret names only) and ontologies', async () => {
    const { app, store } = await buildTestApp({ seed: SEED });
    await store.connections.mergeSecrets('ri.conn.1', { apiKey: 'super-secret-value-1', other: 'super-secret-value-2' });
    const users = (await app.inject({ url: '/_emulate/platform/users' })).json().users;
    expect(users.map((u: { username: string }) => u.username)).toEqual(['admin', 'alice', 'bot']);
    expect(users[1]).toEqual({
      id: expect.any(String),
      username: 'alice',
      displayName: 'Alice A',
      email: 'alice@example.com',
      principalType: 'human',
      active: true,
      oauthClientId: null,
    });

    const clients = await app.inject({ url: '/_emulate/platform/clients' });
    expect(clients.json().clients).toEqual([
      {
        clientId: 'web',
        name: 'web',
        type: 'public',
        redirectUris: ['http://localhost:3000/cb'],
        grantTypes: ['authorization_code', 'refresh_token', 'client_credentials'],
        allowedScopes: ['api:admin-read'],
      },
      { clientId: 'pipeline', name: 'pipeline', type: 'confidential', redirectUris: [], grantTypes: ['client_credentials'], allowedScopes: [] },
    ]);
    expect(clients.body).not.toContain('pipeline-secret-value');

    const connections = await app.inject({ url: '/_emulate/platform/connections' });
    expect(connections.json().connections).toEqual([
      {
        rid: 'ri.conn.1',
        displayName: 'Weather',
        domains: [{ host: 'api.weather.test', port: 443, scheme: 'HTTPS', auth: null }],
        secretNames: ['apiKey', 'other'],
      },
    ]);
    expect(connections.body).not.toContain('super-secret');

    const ontologies = (await app.inject({ url: '/_emulate/platform/ontologies' })).json().ontologies;
    expect(ontologies).toEqual([
      {
        rid: expect.stringMatching(/^ri\./),
        apiName: 'onto',
        displayName: 'Onto',
        description: '',
        queries: [{ apiName: 'greet', resultBytes: 14 }],
        objectTypes: [],
        actionTypes: [],
      },
    ]);
  });

  it('lists live tokens by fingerprint, newest first, and revokes one', async () => {
    const { app, clock } = await buildTestApp({ seed: SEED });
    const first = await mintToken(app, 'admin', ['api:admin-read']);
    const second = await mintToken(app, 'alice', ['a', 'b']);
    const cc = await app.inject({
      method: 'POST',
      url: '/idp/api/oauth2/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=client_credentials&client_id=pipeline&client_secret=pipeline-secret-value',
    });
    expect(cc.statusCode).toBe(200);

    const res = await app.inject({ url: '/_emulate/platform/tokens' });
    expect(res.body).not.toContain(first);
    expect(res.body).not.toContain(second);
    expect(res.body).not.toContain(cc.json().access_token);
    const body = res.json();
    expect(body).toMatchObject({ total: 3, truncated: false });
    expect(body.tokens.map((t: { username: string }) => t.username)).toEqual(['bot', 'alice', 'admin']);
    expect(body.tokens[1]).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{16}$/),
      username: 'alice',
      principalType: 'human',
      clientId: null,
      scopes: ['a', 'b'],
      expiresAt: expect.any(String),
      expiresInSeconds: 3600,
    });
    expect(body.tokens[0]).toMatchObject({ clientId: 'pipeline', principalType: 'service' });

    const revoked = await app.inject({ method: 'DELETE', url: `/_emulate/platform/tokens/${body.tokens[1].id}` });
    expect(revoked.json()).toEqual({ revoked: true, id: body.tokens[1].id });
    expect((await app.inject({ url: '/api/v2/admin/users/getCurrent', headers: bearer(second) })).statusCode).toBe(401);
    expect((await app.inject({ url: '/api/v2/admin/users/getCurrent', headers: bearer(first) })).statusCode).toBe(200);
    const again = await app.inject({ method: 'DELETE', url: `/_emulate/platform/tokens/${body.tokens[1].id}` });
    expect(again.statusCode).toBe(404);
    expect(platformError(again.json()).errorName).toBe('TokenNotFound');
    expect((await app.inject({ method: 'DELETE', url: '/_emulate/platform/tokens/not-hex' })).statusCode).toBe(400);

    // Expired tokens are not live, even before the sweep.
    clock.advance(3600_000);
    expect((await app.inject({ url: '/_emulate/platform/tokens' })).json().tokens).toEqual([]);
  });

  it('answers 404 off loopback without the control token', async () => {
    const { app } = await buildTestApp({ seed: SEED, host: '0.0.0.0' });
    for (const url of [
      '/_emulate/platform/users',
      '/_emulate/platform/tokens',
      '/_emulate/platform/clients',
      '/_emulate/platform/connections',
      '/_emulate/platform/ontologies',
      RUNTIMES,
    ]) {
      expect((await app.inject({ url })).statusCode, url).toBe(404);
    }
  });
});

describe('runtimes and jobs', () => {
  it('lists runtimes with apps, schemas, jobs and results as text or hex, never the module token', async () => {
    const h = await harness();
    await h.app.inject({ method: 'POST', url: `${RUNTIMES}/${RUNTIME}/schemas`, headers: { 'module-auth-token': TOKEN }, payload: [{ functionName: 'add' }] });
    const text = await h.submit();
    const binary = await h.submit({ deployedAppRid: ADDER, deployedAppBranch: 'master', queryType: 'bytes', query: {} });
    const queued = await h.submit({ deployedAppRid: ADDER, deployedAppBranch: 'master', queryType: 'later', query: { n: 1 } });
    await h.poll();
    await h.postResult(text.id, '{"sum":5}', { 'content-type': 'application/json' });
    await h.poll();
    await h.postResult(binary.id, Buffer.from([0, 1, 2, 0xff]));

    const res = await h.app.inject({ url: RUNTIMES });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(TOKEN);
    const [rt1, rt2] = res.json().runtimes;
    expect(rt2.runtimeId).toBe('rt-2');
    expect(rt1).toMatchObject({ runtimeId: RUNTIME, waitingPolls: 0, schemas: [{ functionName: 'add' }] });
    expect(rt1.deployedApps).toHaveLength(2);
    expect(rt1.jobs.map((j: { id: string }) => j.id)).toEqual([queued.id, binary.id, text.id]);
    expect(rt1.jobs[2]).toMatchObject({
      state: 'succeeded',
      queryType: 'add',
      query: { text: '{"a":2,"b":3}', truncated: false },
      result: { bytes: 9, contentType: 'application/json', preview: { encoding: 'text', text: '{"sum":5}', truncated: false } },
    });
    expect(rt1.jobs[1].result.preview).toEqual({ encoding: 'hex', text: '00 01 02 ff', truncated: false });
    expect(rt1.jobs[0]).toMatchObject({ state: 'queued', result: null });
  });

  it('cancels a job, waking a held execute; a finished job stays as it is', async () => {
    const h = await harness();
    const execute = h.execute();
    // The execute's job is queued once the listing shows it.
    let jobId: string | undefined;
    for (let turn = 0; turn < 10_000 && !jobId; turn++) {
      jobId = (await h.app.inject({ url: RUNTIMES })).json().runtimes[0].jobs[0]?.id;
      if (!jobId) await new Promise((resolve) => setImmediate(resolve));
    }
    const cancel = await h.app.inject({ method: 'DELETE', url: `${RUNTIMES}/${RUNTIME}/jobs/${jobId}` });
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json().job).toMatchObject({ id: jobId, state: 'canceled' });
    oauthError(await execute, 409, 'job_canceled');
    expect((await h.app.inject({ method: 'DELETE', url: `${RUNTIMES}/${RUNTIME}/jobs/${jobId}` })).json().job.state).toBe('canceled');
    oauthError(await h.app.inject({ method: 'DELETE', url: `${RUNTIMES}/rt-2/jobs/${jobId}` }), 404, 'not_found');
  });
});

describe('preview', () => {
  it('shows printable UTF-8 as text and anything else as hex, cut at 2 KiB', () => {
    expect(preview(Buffer.from('héllo\n\tworld'))).toEqual({ encoding: 'text', text: 'héllo\n\tworld', truncated: false });
    expect(preview(Buffer.from([0x68, 0x00]))).toMatchObject({ encoding: 'hex', text: '68 00' });
    expect(preview(Buffer.from([0xc3]))).toMatchObject({ encoding: 'hex' });
    const long = preview(Buffer.from('é'.repeat(2000)));
    expect(long).toMatchObject({ encoding: 'text', truncated: true });
    expect(long.text).toBe('é'.repeat(1024));
  });
});

describe('ontologyDefinitions', () => {
  it('lists object types with their object counts and action types when the store has them', async () => {
    const record = {
      rid: 'ri.o',
      apiName: 'o',
      displayName: 'O',
      description: '',
      queries: new Map(),
      objectTypes: new Map([
        ['Employee', { apiName: 'Employee', displayName: 'Employee' }],
        ['Office', { apiName: 'Office' }],
      ]),
      actionTypes: new Map([['promote', { apiName: 'promote' }]]),
    } as unknown as OntologyRecord;
    const store = { ontologyObjects: { list: async (_rid: string, type: string) => (type === 'Employee' ? [1, 2, 3] : []) } } as unknown as Store;
    expect(await ontologyDefinitions(store, record)).toEqual({
      objectTypes: [
        { apiName: 'Employee', displayName: 'Employee', objects: 3 },
        { apiName: 'Office', displayName: 'Office', objects: 0 },
      ],
      actionTypes: ['promote'],
    });
  });
});
