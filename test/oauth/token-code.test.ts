// grant_type=authorization_code: SPEC §3's code rows, PKCE, replay and redirect_uri (docs/contracts.md §2).
import { describe, expect, it } from 'vitest';
import { bearer, buildTestApp } from '../helpers/app.js';
import { TOKEN, VERIFIER, basic, codeFor, expectOAuthError, postForm, s256 } from './flow.js';

const SEED = `
platform:
  users:
    - { username: alice, email: alice@example.com }
  oauth_clients:
    - { client_id: web, client_secret: s3cret, redirect_uris: ["https://app.example.com/cb"] }
    - { client_id: spa, redirect_uris: ["http://localhost:5173/cb"] }
    - { client_id: norefresh, redirect_uris: ["https://n.example.com/cb"], grant_types: [authorization_code] }
`;
const web = { client_id: 'web', response_type: 'code', redirect_uri: 'https://app.example.com/cb' };
const spa = { client_id: 'spa', response_type: 'code', redirect_uri: 'http://localhost:5173/cb' };
const webAuth = basic('web', 's3cret');

const exchange = (app: Parameters<typeof postForm>[0], code: string, extra: Record<string, string> = {}, headers = webAuth) =>
  postForm(app, TOKEN, { grant_type: 'authorization_code', code, ...extra }, headers);

describe('authorization_code grant', () => {
  it('issues an access token with the requested scopes and no refresh token without offline_access', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const code = await codeFor(app, { ...web, scope: 'api:admin-read custom:x' }, 'alice');
    const res = await exchange(app, code, { redirect_uri: web.redirect_uri });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.pragma).toBe('no-cache');
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'scope', 'token_type']);
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'api:admin-read custom:x' });
    expect(body.access_token).toMatch(/^platform_[A-Za-z0-9_-]{43}$/);
    const me = await app.inject({ url: '/api/v2/admin/users/getCurrent', headers: bearer(body.access_token) });
    expect(me.json()).toMatchObject({ username: 'alice', email: 'alice@example.com' });
  });

  it('issues a refresh token when offline_access was requested', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const code = await codeFor(app, { ...web, scope: 'offline_access api:admin-read' });
    const body = (await exchange(app, code)).json();
    expect(body.refresh_token).toMatch(/^platform_refresh_[A-Za-z0-9_-]{43}$/);
    expect(body.scope).toBe('offline_access api:admin-read');
  });

  it('issues no refresh token to a client not allowed the refresh_token grant', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const code = await codeFor(app, { client_id: 'norefresh', response_type: 'code', scope: 'offline_access' });
    const body = (await postForm(app, TOKEN, { grant_type: 'authorization_code', code, client_id: 'norefresh' })).json();
    expect(body.access_token).toBeDefined();
    expect(body.refresh_token).toBeUndefined();
  });

  it('expires the code after 10 minutes (injected clock)', async () => {
    const { app, clock } = await buildTestApp({ seed: SEED });
    const early = await codeFor(app, web);
    clock.advance(10 * 60 * 1000 - 1);
    expect((await exchange(app, early)).statusCode).toBe(200);
    const late = await codeFor(app, web);
    clock.advance(10 * 60 * 1000);
    expectOAuthError(await exchange(app, late), 400, 'invalid_grant');
  });

  it('rejects an unknown code and a missing code', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    expectOAuthError(await exchange(app, 'not-a-code'), 400, 'invalid_grant');
    expectOAuthError(await postForm(app, TOKEN, { grant_type: 'authorization_code' }, webAuth), 400, 'invalid_request');
  });

  it('a replayed code is invalid_grant and revokes the tokens issued from it', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const code = await codeFor(app, { ...web, scope: 'api:admin-read offline_access' });
    const first = (await exchange(app, code)).json();
    const replay = await exchange(app, code);
    expect(expectOAuthError(replay, 400, 'invalid_grant')).toMatch(/already used/);
    const me = await app.inject({ url: '/api/v2/admin/users/getCurrent', headers: bearer(first.access_token) });
    expect(me.statusCode).toBe(401);
    const refresh = await postForm(app, TOKEN, { grant_type: 'refresh_token', refresh_token: first.refresh_token }, webAuth);
    expectOAuthError(refresh, 400, 'invalid_grant');
  });

  it('a code presented twice at once leaves no live token', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const code = await codeFor(app, { ...web, scope: 'api:admin-read offline_access' });
    const results = await Promise.all([exchange(app, code), exchange(app, code)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    for (const won of results.filter((r) => r.statusCode === 200).map((r) => r.json())) {
      expect((await app.inject({ url: '/idp/api/me', headers: bearer(won.access_token) })).statusCode).toBe(401);
      expectOAuthError(await postForm(app, TOKEN, { grant_type: 'refresh_token', refresh_token: won.refresh_token }, webAuth), 400, 'invalid_grant');
    }
  });

  it('a replay landing while the first exchange is issuing its token revokes that token, and the first still answers 200 (issue 25)', async () => {
    const { app, store } = await buildTestApp({ seed: SEED });
    const code = await codeFor(app, { ...web, scope: 'api:admin-read offline_access' });
    // Let the replay run to completion between the first exchange's consume and its token insert.
    const insertAccess = store.tokens.insertAccess.bind(store.tokens);
    let replay: Awaited<ReturnType<typeof exchange>> | undefined;
    store.tokens.insertAccess = async (record) => {
      store.tokens.insertAccess = insertAccess;
      replay = await exchange(app, code);
      return insertAccess(record);
    };
    const first = await exchange(app, code);
    expectOAuthError(replay!, 400, 'invalid_grant');
    // Exactly one of the two answers 200: the exchange that consumed the code fresh. Its tokens are revoked.
    expect(first.statusCode).toBe(200);
    expect(await store.tokens.countAccess()).toBe(0);
    expect((await app.inject({ url: '/idp/api/me', headers: bearer(first.json().access_token) })).statusCode).toBe(401);
    expectOAuthError(await postForm(app, TOKEN, { grant_type: 'refresh_token', refresh_token: first.json().refresh_token }, webAuth), 400, 'invalid_grant');
  });

  it('a failed attempt consumes the code too', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const code = await codeFor(app, web);
    expectOAuthError(await exchange(app, code, { redirect_uri: 'https://app.example.com/other' }), 400, 'invalid_grant');
    expectOAuthError(await exchange(app, code, { redirect_uri: web.redirect_uri }), 400, 'invalid_grant');
  });

  it('redirect_uri may be omitted at the token endpoint, but must match when sent', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    expect((await exchange(app, await codeFor(app, web))).statusCode).toBe(200);
    const desc = expectOAuthError(await exchange(app, await codeFor(app, web), { redirect_uri: 'https://app.example.com/cb/' }), 400, 'invalid_grant');
    expect(desc).toMatch(/redirect_uri/);
  });

  it('a code is bound to its client', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const code = await codeFor(app, spa);
    expectOAuthError(await exchange(app, code), 400, 'invalid_grant');
  });

  it('a deactivated user cannot redeem a code, and their tokens answer 401 invalid_token', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const token = (await exchange(app, await codeFor(app, { ...web, scope: 'api:admin-read' }, 'alice'))).json().access_token;
    const pending = await codeFor(app, web, 'alice');
    await app.inject({ method: 'POST', url: '/_emulate/platform/users/alice/deactivate' });
    const res = await app.inject({ url: '/api/v2/admin/users/getCurrent', headers: bearer(token) });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: 'invalid_token' });
    expectOAuthError(await exchange(app, pending), 400, 'invalid_grant');
  });
});

describe('authorization_code grant with PKCE', () => {
  const withS256 = { ...spa, code_challenge: s256(VERIFIER), code_challenge_method: 'S256' };
  const pkceExchange = (app: Parameters<typeof postForm>[0], code: string, extra: Record<string, string> = {}) =>
    postForm(app, TOKEN, { grant_type: 'authorization_code', code, client_id: 'spa', redirect_uri: spa.redirect_uri, ...extra });

  it('accepts the matching S256 verifier from a public client', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const res = await pkceExchange(app, await codeFor(app, withS256), { code_verifier: VERIFIER });
    expect(res.statusCode).toBe(200);
  });

  it('accepts plain, the default method when only a challenge is given', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const res = await pkceExchange(app, await codeFor(app, { ...spa, code_challenge: VERIFIER }), { code_verifier: VERIFIER });
    expect(res.statusCode).toBe(200);
    const s256AsPlain = await pkceExchange(app, await codeFor(app, { ...spa, code_challenge: VERIFIER }), { code_verifier: s256(VERIFIER) + 'x' });
    expectOAuthError(s256AsPlain, 400, 'invalid_grant');
  });

  it('rejects a mismatching verifier', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const res = await pkceExchange(app, await codeFor(app, withS256), { code_verifier: 'b'.repeat(43) });
    expect(expectOAuthError(res, 400, 'invalid_grant')).toMatch(/does not match/);
  });

  it('rejects a missing verifier', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const res = await pkceExchange(app, await codeFor(app, withS256));
    expect(expectOAuthError(res, 400, 'invalid_grant')).toMatch(/code_verifier is required/);
  });

  it('rejects a verifier of the wrong format', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const short = 'abc';
    const res = await pkceExchange(app, await codeFor(app, { ...spa, code_challenge: s256(short), code_challenge_method: 'S256' }), { code_verifier: short });
    expect(expectOAuthError(res, 400, 'invalid_grant')).toMatch(/43 to 128/);
  });

  it('rejects a verifier for a code that had no challenge (downgrade)', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const res = await pkceExchange(app, await codeFor(app, spa), { code_verifier: VERIFIER });
    expect(expectOAuthError(res, 400, 'invalid_grant')).toMatch(/no code_challenge/);
  });
});
