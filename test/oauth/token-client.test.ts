// Client authentication, the token endpoint's request checks, and grant_type=client_credentials.
import { describe, expect, it } from 'vitest';
import { bearer, buildTestApp } from '../helpers/app.js';
import { TOKEN, basic, expectOAuthError, postForm } from './flow.js';

const SEED = `
platform:
  users:
    - { username: ci, display_name: CI human }
    - { username: pipeline-bot, principal_type: service, oauth_client_id: pipeline }
  oauth_clients:
    - { client_id: ci, client_secret: "s3cret+/ :%", name: CI }
    - { client_id: pipeline, client_secret: p }
    - { client_id: limited, client_secret: l, allowed_scopes: [api:admin-read] }
    - { client_id: public, redirect_uris: ["https://p.example.com/cb"] }
    - { client_id: codeonly, client_secret: c, grant_types: [authorization_code], redirect_uris: ["https://c.example.com/cb"] }
`;
const cc = (extra: Record<string, string> = {}) => ({ grant_type: 'client_credentials', ...extra });

describe('client authentication', () => {
  it('accepts client_secret_basic, form-decoding id and secret', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const res = await postForm(app, TOKEN, cc(), basic('ci', 's3cret+/ :%'));
    expect(res.statusCode).toBe(200);
    // `+` in the encoded form means a space (application/x-www-form-urlencoded).
    const plus = Buffer.from('ci:s3cret%2B%2F+%3A%25').toString('base64');
    expect((await postForm(app, TOKEN, cc(), { authorization: `Basic ${plus}` })).statusCode).toBe(200);
  });

  it('accepts client_secret_post', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    expect((await postForm(app, TOKEN, cc({ client_id: 'ci', client_secret: 's3cret+/ :%' }))).statusCode).toBe(200);
  });

  it('both methods at once are invalid_request', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const res = await postForm(app, TOKEN, cc({ client_secret: 's3cret+/ :%' }), basic('ci', 's3cret+/ :%'));
    expect(expectOAuthError(res, 400, 'invalid_request')).toMatch(/both/);
  });

  it('a wrong secret is invalid_client 401, with WWW-Authenticate only after Basic', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const viaBasic = await postForm(app, TOKEN, cc(), basic('ci', 'wrong'));
    expectOAuthError(viaBasic, 401, 'invalid_client');
    expect(viaBasic.headers['www-authenticate']).toBe('Basic realm="platform"');
    const viaPost = await postForm(app, TOKEN, cc({ client_id: 'ci', client_secret: 'wrong' }));
    expectOAuthError(viaPost, 401, 'invalid_client');
    expect(viaPost.headers['www-authenticate']).toBeUndefined();
    expect(viaPost.body).not.toContain('s3cret');
  });

  it('an unknown client, a missing secret, a malformed header are invalid_client', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    expectOAuthError(await postForm(app, TOKEN, cc({ client_id: 'nope', client_secret: 'x' })), 401, 'invalid_client');
    expectOAuthError(await postForm(app, TOKEN, cc({ client_id: 'ci' })), 401, 'invalid_client');
    expectOAuthError(await postForm(app, TOKEN, cc(), { authorization: 'Basic !!!' }), 401, 'invalid_client');
    expectOAuthError(await postForm(app, TOKEN, cc(), { authorization: `Basic ${Buffer.from('no-colon').toString('base64')}` }), 401, 'invalid_client');
    // A bad escape decodes as the form body's would (kept as it is), so it is simply not the secret.
    expectOAuthError(await postForm(app, TOKEN, cc(), { authorization: `Basic ${Buffer.from('ci:s3cret%zz').toString('base64')}` }), 401, 'invalid_client');
  });

  it('a public client presents its client_id alone, never a secret', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    expect((await postForm(app, TOKEN, cc({ client_id: 'public' }))).statusCode).toBe(200);
    expectOAuthError(await postForm(app, TOKEN, cc({ client_id: 'public', client_secret: 'guess' })), 401, 'invalid_client');
  });

  it('a missing client_id is invalid_request; a body client_id differing from Basic too', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    expectOAuthError(await postForm(app, TOKEN, cc()), 400, 'invalid_request');
    expectOAuthError(await postForm(app, TOKEN, cc({ client_id: 'pipeline' }), basic('ci', 's3cret+/ :%')), 400, 'invalid_request');
  });
});

describe('token endpoint request checks', () => {
  it('a missing grant_type is invalid_request; an unknown one unsupported_grant_type', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    expectOAuthError(await postForm(app, TOKEN, { client_id: 'public' }), 400, 'invalid_request');
    expectOAuthError(await postForm(app, TOKEN, { grant_type: 'password', client_id: 'public' }), 400, 'unsupported_grant_type');
    expectOAuthError(await postForm(app, TOKEN, { grant_type: 'toString', client_id: 'public' }), 400, 'unsupported_grant_type');
  });

  it('a grant type absent from the client’s grant_types is unauthorized_client', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    expectOAuthError(await postForm(app, TOKEN, cc(), basic('codeonly', 'c')), 400, 'unauthorized_client');
  });

  it('a repeated parameter, a JSON body or an empty body is invalid_request', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const repeated = await app.inject({
      method: 'POST',
      url: TOKEN,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=client_credentials&client_id=public&client_id=public&scope=a',
    });
    // `scope` alone may repeat (docs/contracts.md §10; test/http/python-wire.test.ts); any other field is refused.
    expect(expectOAuthError(repeated, 400, 'invalid_request')).toMatch(/client_id/);
    expectOAuthError(
      await app.inject({ method: 'POST', url: TOKEN, payload: { grant_type: 'client_credentials', client_id: 'public' } }),
      400,
      'invalid_request',
    );
    expectOAuthError(await app.inject({ method: 'POST', url: TOKEN }), 400, 'invalid_request');
  });

  it('a body over 1 MiB is rejected in the OAuth envelope', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const res = await app.inject({
      method: 'POST',
      url: TOKEN,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'scope=' + 'a'.repeat(1024 * 1024 + 1),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toBe('invalid_request');
  });
});

describe('client_credentials grant', () => {
  it('issues a token for a service principal named after the client, echoing the scope, with no refresh token', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const res = await postForm(app, TOKEN, cc({ scope: 'api:admin-read offline_access' }), basic('ci', 's3cret+/ :%'));
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'scope', 'token_type']);
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'api:admin-read offline_access' });
    const me = (await app.inject({ url: '/api/v2/admin/users/getCurrent', headers: bearer(body.access_token) })).json();
    expect(me).toMatchObject({ username: 'ci', status: 'ACTIVE', attributes: { 'idp:realm': ['platform-internal-realm'] } });
    expect(me).not.toHaveProperty('organization');
    expect(Object.keys(me.attributes)).toEqual(['idp:realm']);
    expect(me.email).toBeUndefined();
    // Apart from the seeded human of the same name, and the same principal every time.
    const human = (
      await app.inject({
        url: '/idp/api/me',
        headers: bearer((await app.inject({ method: 'POST', url: '/_emulate/platform/tokens', payload: { username: 'ci' } })).json().access_token),
      })
    ).json();
    expect(human.id).not.toBe(me.id);
    const again = (await postForm(app, TOKEN, cc({ scope: 'api:admin-read' }), basic('ci', 's3cret+/ :%'))).json();
    expect((await app.inject({ url: '/api/v2/admin/users/getCurrent', headers: bearer(again.access_token) })).json().id).toBe(me.id);
  });

  it('uses the seeded service user tied to the client', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const body = (await postForm(app, TOKEN, cc({ scope: 'api:admin-read' }), basic('pipeline', 'p'))).json();
    const me = await app.inject({ url: '/api/v2/admin/users/getCurrent', headers: bearer(body.access_token) });
    expect(me.json().username).toBe('pipeline-bot');
  });

  it('with no scope field at all, grants every scope of the matrix (docs/contracts.md §2, issue 25)', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const body = (await postForm(app, TOKEN, cc(), basic('pipeline', 'p'))).json();
    const granted = (body.scope as string).split(' ');
    for (const scope of [
      'api:admin-read',
      'api:connectivity-connection-read',
      'api:connectivity-connection-write',
      'api:ontologies-read',
      'api:ontologies-write',
      'offline_access',
    ]) {
      expect(granted).toContain(scope);
    }
    expect(body.refresh_token).toBeUndefined();
    // The token works on every route of the matrix, as the platform's "a token with all scopes" does.
    expect((await app.inject({ url: '/api/v2/admin/users/getCurrent', headers: bearer(body.access_token) })).statusCode).toBe(200);
    expect((await app.inject({ url: '/api/v2/ontologies', headers: bearer(body.access_token) })).statusCode).toBe(200);
    // An empty scope counts as omitted (RFC 6749 §3.1): the same grant.
    expect((await postForm(app, TOKEN, cc({ scope: '' }), basic('pipeline', 'p'))).json().scope).toBe(body.scope);
  });

  it('with no scope field at all, a client with allowed_scopes gets exactly those', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const res = await postForm(app, TOKEN, cc(), basic('limited', 'l'));
    expect(res.json().scope).toBe('api:admin-read');
  });

  it('checks allowed_scopes', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    expect((await postForm(app, TOKEN, cc({ scope: 'api:admin-read' }), basic('limited', 'l'))).statusCode).toBe(200);
    const res = await postForm(app, TOKEN, cc({ scope: 'api:admin-read api:ontologies-read' }), basic('limited', 'l'));
    expect(expectOAuthError(res, 400, 'invalid_scope')).toMatch(/api:ontologies-read/);
  });

  it('refuses a client whose seeded service user is deactivated', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    await app.inject({ method: 'POST', url: '/_emulate/platform/users/pipeline-bot/deactivate' });
    // invalid_grant, as the other grants answer for a deactivated user; unauthorized_client means only a grant
    // type outside the client's grant_types (docs/contracts.md §2).
    expectOAuthError(await postForm(app, TOKEN, cc(), basic('pipeline', 'p')), 400, 'invalid_grant');
  });
});

describe('open mode (no clients seeded)', () => {
  it('accepts any client_id as a public client on every grant, with any scope', async () => {
    const { app } = await buildTestApp();
    const res = await postForm(app, TOKEN, cc({ client_id: 'anything', scope: 'api:admin-read whatever' }));
    expect(res.json().scope).toBe('api:admin-read whatever');
    const viaBasic = await postForm(app, TOKEN, cc(), basic('anything', 'any-secret'));
    expect(viaBasic.statusCode).toBe(200);
  });
});
