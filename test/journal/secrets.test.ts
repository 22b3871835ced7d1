// No secret value ever appears in the journal or the log (issue 13): secrets are pushed through every route
// family, in bodies, headers and queries, on success and on refusal, with per-request logging on (debug), and
// the journal and every log line are searched for each of them.
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../helpers/app.js';
import { AUTHORIZE, CALLBACK, FORM, TOKEN, authorizeUrl, basic, postForm, s256, signInForm } from '../oauth/flow.js';
import { captureLog } from './helpers.js';

const S = {
  clientSecret: 'zz-client-secret-41a7',
  wrongSecret: 'zz-wrong-secret-9c2e',
  lateClientSecret: 'zz-late-client-secret-5d1f',
  verifier: 'zz-verifier-'.padEnd(50, 'v'),
  state: 'zz-state-7b3d',
  bearer: 'zz-conn-bearer-2f8a',
  apiKey: 'zz-conn-apikey-6e0c',
  password: 'zz-conn-password-a3b9',
  extra: 'zz-conn-extra-1d4e',
  rotated: 'zz-conn-rotated-8c5f',
  controlSecret: 'zz-conn-control-0a6b',
  moduleToken: 'zz-module-token-3e9d7c',
  wrongModuleToken: 'zz-wrong-module-token-4f8e',
  badBearer: 'platform_zzbadbearer55',
};

const SEED = {
  platform: {
    users: [{ username: 'alice' }],
    oauth_clients: [
      { client_id: 'web', redirect_uris: ['http://localhost:3000/cb'] },
      { client_id: 'conf', client_secret: S.clientSecret, redirect_uris: ['http://localhost:3000/cb'] },
    ],
    compute_modules: {
      runtimes: [{ runtime_id: 'rt-1', module_auth_token: S.moduleToken }],
      deployed_apps: [{ deployed_app_rid: 'ri.app.a', runtime_id: 'rt-1' }],
    },
  },
};

const plain = (value: string) => ({ type: 'asPlaintextValue', value });

describe('secrets never reach the journal or the log', () => {
  it('through the OAuth, bearer, connectivity, compute-module and control routes, at debug', async () => {
    const log = captureLog();
    const { app } = await buildTestApp({ seed: SEED, logLevel: 'debug', logDestination: log });
    const issued: string[] = [];
    const json = (headers: Record<string, string> = {}) => ({ ...headers, 'content-type': 'application/json' });

    // OAuth: the code flow with PKCE and state, the code's replay, refresh, revoke, introspect, client refusals.
    const page = await app.inject({
      url: authorizeUrl({
        client_id: 'conf',
        response_type: 'code',
        redirect_uri: 'http://localhost:3000/cb',
        scope: 'offline_access api:admin-read',
        state: S.state,
        code_challenge: s256(S.verifier),
        code_challenge_method: 'S256',
      }),
    });
    const form = signInForm(page);
    issued.push(form.requestId, form.csrf, form.cookie.split('=')[1]!);
    const callback = await postForm(app, CALLBACK, { request_id: form.requestId, csrf_token: form.csrf, username: 'alice' }, { cookie: form.cookie });
    const code = new URL(String(callback.headers.location)).searchParams.get('code')!;
    issued.push(code);
    const tokens = await postForm(app, TOKEN, { grant_type: 'authorization_code', code, code_verifier: S.verifier }, basic('conf', S.clientSecret));
    expect(tokens.statusCode).toBe(200);
    const access = tokens.json().access_token as string;
    const refresh = tokens.json().refresh_token as string;
    issued.push(access, refresh);
    await postForm(app, TOKEN, { grant_type: 'authorization_code', code, code_verifier: S.verifier, client_id: 'conf', client_secret: S.clientSecret });
    const refreshed = await postForm(app, TOKEN, { grant_type: 'refresh_token', refresh_token: refresh }, basic('conf', S.clientSecret));
    issued.push(refreshed.json().access_token, refreshed.json().refresh_token);
    await postForm(app, TOKEN, { grant_type: 'refresh_token', refresh_token: refresh }, basic('conf', S.clientSecret));
    await postForm(app, TOKEN, { grant_type: 'client_credentials' }, basic('conf', S.wrongSecret));
    await postForm(app, TOKEN, { grant_type: 'client_credentials', client_id: 'web', client_secret: S.wrongSecret });
    await postForm(app, TOKEN, { grant_type: 'client_credentials', client_secret: S.wrongSecret }, basic('conf', S.clientSecret));
    await app.inject({ method: 'POST', url: TOKEN, headers: FORM, payload: `client_secret=${S.wrongSecret}&client_secret=${S.wrongSecret}` });
    await postForm(app, '/idp/api/oauth2/introspect', { token: refreshed.json().access_token }, basic('conf', S.clientSecret));
    await postForm(app, '/idp/api/oauth2/revoke_token', { token: refreshed.json().refresh_token }, basic('conf', S.clientSecret));
    await app.inject({ url: `${AUTHORIZE}?client_id=conf&response_type=code&redirect_uri=http://evil.test/&state=${S.state}` });
    await app.inject({ url: `${AUTHORIZE}?client_id=conf&response_type=code&code_challenge=${S.verifier}&code_challenge_method=S256&state=${S.state}` });

    // Bearer routes: valid, unknown, in a query parameter.
    const minted = await app.inject({
      method: 'POST',
      url: '/_emulate/platform/tokens',
      payload: { username: 'alice', scopes: ['api:connectivity-connection-read', 'api:connectivity-connection-write'] },
    });
    const token = minted.json().access_token as string;
    issued.push(token);
    await app.inject({ url: '/api/v2/admin/users/getCurrent', headers: { authorization: `Bearer ${access}` } });
    await app.inject({ url: '/api/v2/admin/users/getCurrent', headers: { authorization: `Bearer ${S.badBearer}` } });
    await app.inject({ url: `/api/v2/admin/users/getCurrent?access_token=${access}&token=${token}` });

    // Connectivity: create with every kind of secret, update secrets, refusals whose bodies carry secrets.
    const base = '/api/v2/connectivity/connections';
    const create = (domains: unknown[], extra: Record<string, string>) =>
      app.inject({
        method: 'POST',
        url: `${base}?preview=true`,
        headers: json({ authorization: `Bearer ${token}` }),
        payload: {
          parentFolderRid: 'ri.compass.main.folder.f',
          displayName: 'Secrets',
          configuration: { type: 'rest', domains, additionalSecrets: { type: 'asSecretsWithPlaintextValues', secrets: extra } },
        },
      });
    const created = await create(
      [
        { host: 'a.test', scheme: 'HTTPS', auth: { type: 'bearerToken', bearerToken: plain(S.bearer) } },
        { host: 'b.test', scheme: 'HTTPS', auth: { type: 'apiKey', location: { type: 'header', headerName: 'X-Key' }, apiKey: plain(S.apiKey) } },
        { host: 'c.test', scheme: 'HTTPS', auth: { type: 'basic', username: 'u', password: plain(S.password) } },
      ],
      { extra: S.extra },
    );
    expect(created.statusCode).toBe(200);
    const rid = created.json().rid as string;
    await create([{ host: 'http.test', scheme: 'HTTP', auth: { type: 'bearerToken', bearerToken: plain(S.bearer) } }], { extra: S.extra });
    await app.inject({
      method: 'POST',
      url: `${base}/${rid}/updateSecrets?preview=true`,
      headers: json({ authorization: `Bearer ${token}` }),
      payload: { secrets: { extra: S.rotated } },
    });
    await app.inject({
      method: 'POST',
      url: `${base}/${rid}/updateSecrets?preview=true`,
      headers: json({ authorization: `Bearer ${token}` }),
      payload: { secrets: { extra: 5, other: S.rotated } },
    });
    await app.inject({
      method: 'POST',
      url: `${base}/${rid}/updateSecrets?preview=true`,
      headers: json({ authorization: `Bearer ${token}` }),
      payload: `{"secrets": {"a": "${S.rotated}"`,
    });
    await app.inject({
      method: 'PUT',
      url: `/_emulate/platform/connections/${rid}`,
      payload: { display_name: 'X', parent_folder_rid: 'ri.f', secrets: { more: S.controlSecret } },
    });
    await app.inject({ method: 'PUT', url: `/_emulate/platform/connections/${rid}`, payload: { display_name: 5, secrets: { more: S.controlSecret } } });

    // Compute modules: the runtime's token in bodies and headers, right and wrong.
    const runtimes = '/_emulate/platform/compute-modules/runtimes';
    await app.inject({ method: 'POST', url: runtimes, payload: { runtimeId: 'rt-1', moduleAuthToken: S.moduleToken } });
    await app.inject({ method: 'POST', url: runtimes, payload: { runtimeId: 'bad id!', moduleAuthToken: S.moduleToken } });
    await app.inject({ url: `${runtimes}/rt-1/job`, headers: { 'module-auth-token': S.wrongModuleToken } });
    await app.inject({ method: 'POST', url: `${runtimes}/rt-1/schemas`, headers: json({ 'module-auth-token': S.moduleToken }), payload: [] });

    // Control: a client with a secret, created and refused.
    await app.inject({ method: 'PUT', url: '/_emulate/platform/oauth-clients/late', payload: { client_secret: S.lateClientSecret } });
    await app.inject({ method: 'PUT', url: '/_emulate/platform/oauth-clients/late', payload: { client_secret: S.lateClientSecret, grant_types: ['magic'] } });

    const journal = JSON.stringify(app.journal.list());
    const logText = log.lines.join('');
    expect(app.journal.list().length).toBeGreaterThanOrEqual(30);
    expect(app.journal.list({ refusals: true }).length).toBeGreaterThan(12);
    expect(log.parsed().filter((l) => l.msg === 'incoming request').length).toBeGreaterThan(30);
    for (const secret of [...Object.values(S), ...issued]) {
      expect(journal.includes(secret), `journal carries ${secret}`).toBe(false);
      expect(logText.includes(secret), `log carries ${secret}`).toBe(false);
    }
    // The redacted parameters are still visible by name.
    expect(journal).toContain('access_token=[redacted]');
    expect(journal).toContain('state=[redacted]');
  });
});
