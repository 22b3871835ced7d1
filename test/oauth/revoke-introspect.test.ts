// Revocation (RFC 7009), introspection (RFC 7662), metadata (RFC 8414), and the sweep that bounds memory.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bearer, buildTestApp } from '../helpers/app.js';
import { startSweeper } from '../../src/services/oauth/sweeper.js';
import { TOKEN, basic, codeFor, expectOAuthError, postForm } from './flow.js';

const SEED = `
platform:
  users:
    - { username: alice }
  oauth_clients:
    - { client_id: web, client_secret: s3cret, redirect_uris: ["https://app.example.com/cb"] }
    - { client_id: other, client_secret: o }
`;
const REVOKE = '/idp/api/oauth2/revoke_token';
const INTROSPECT = '/idp/api/oauth2/introspect';
const auth = basic('web', 's3cret');

async function tokens(app: Parameters<typeof postForm>[0]) {
  const code = await codeFor(app, { client_id: 'web', response_type: 'code', scope: 'offline_access api:admin-read' }, 'alice');
  return (await postForm(app, TOKEN, { grant_type: 'authorization_code', code }, auth)).json() as { access_token: string; refresh_token: string };
}

describe('revocation', () => {
  it('revokes an access token: 200 with an empty body, then the token is 401', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const t = await tokens(app);
    const res = await postForm(app, REVOKE, { token: t.access_token }, auth);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
    expect((await app.inject({ url: '/idp/api/me', headers: bearer(t.access_token) })).statusCode).toBe(401);
  });

  it('revoking a refresh token ends its authorization', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const t = await tokens(app);
    expect((await postForm(app, REVOKE, { token: t.refresh_token, token_type_hint: 'refresh_token' }, auth)).statusCode).toBe(200);
    expectOAuthError(await postForm(app, TOKEN, { grant_type: 'refresh_token', refresh_token: t.refresh_token }, auth), 400, 'invalid_grant');
    expect((await app.inject({ url: '/idp/api/me', headers: bearer(t.access_token) })).statusCode).toBe(401);
  });

  it('answers 200 for an unknown token, and leaves another client’s token alone', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const t = await tokens(app);
    expect((await postForm(app, REVOKE, { token: 'platform_unknown' }, auth)).statusCode).toBe(200);
    expect((await postForm(app, REVOKE, { token: t.access_token }, basic('other', 'o'))).statusCode).toBe(200);
    expect((await app.inject({ url: '/idp/api/me', headers: bearer(t.access_token) })).statusCode).toBe(200);
  });

  it('authenticates the client and requires token', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    expectOAuthError(await postForm(app, REVOKE, { token: 'x' }, basic('web', 'wrong')), 401, 'invalid_client');
    expectOAuthError(await postForm(app, REVOKE, {}, auth), 400, 'invalid_request');
  });
});

describe('introspection', () => {
  it('describes an active access token and an active refresh token', async () => {
    const { app, clock } = await buildTestApp({ seed: SEED });
    const t = await tokens(app);
    const res = await postForm(app, INTROSPECT, { token: t.access_token }, auth);
    expect(res.statusCode).toBe(200);
    const iat = Math.floor(clock.now() / 1000);
    expect(res.json()).toEqual({
      active: true,
      scope: 'offline_access api:admin-read',
      client_id: 'web',
      username: 'alice',
      sub: expect.stringMatching(/^[0-9a-f-]{36}$/),
      token_type: 'Bearer',
      iat,
      exp: iat + 3600,
      iss: 'http://localhost:4000/idp',
    });
    const refresh = (await postForm(app, INTROSPECT, { token: t.refresh_token }, auth)).json();
    expect(refresh).toMatchObject({ active: true, token_type: 'refresh_token', iat, exp: iat + 24 * 3600 });
    // iat is the issue time, not the time of asking.
    clock.advance(60_000);
    expect((await postForm(app, INTROSPECT, { token: t.access_token }, auth)).json()).toMatchObject({ iat, exp: iat + 3600 });
    expect((await postForm(app, INTROSPECT, { token: t.refresh_token }, auth)).json()).toMatchObject({ iat, exp: iat + 24 * 3600 });
  });

  it('says only active:false for unknown, expired, revoked or deactivated-user tokens', async () => {
    const { app, clock } = await buildTestApp({ seed: SEED });
    const inactive = async (token: string) => expect((await postForm(app, INTROSPECT, { token }, auth)).json()).toEqual({ active: false });
    await inactive('platform_unknown');
    const t = await tokens(app);
    await app.inject({ method: 'POST', url: '/_emulate/platform/users/alice/deactivate' });
    await inactive(t.access_token);
    await app.inject({ method: 'POST', url: '/_emulate/platform/users/alice/activate' });
    await postForm(app, REVOKE, { token: t.refresh_token }, auth);
    await inactive(t.refresh_token);
    const u = await tokens(app);
    clock.advance(3600 * 1000);
    await inactive(u.access_token);
  });

  it('authenticates the client', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    expectOAuthError(await postForm(app, INTROSPECT, { token: 'x' }), 400, 'invalid_request');
    expectOAuthError(await postForm(app, INTROSPECT, { token: 'x', client_id: 'web' }), 401, 'invalid_client');
  });
});

describe('authorization server metadata', () => {
  it('is served at the RFC 8414 path for issuer {base}/idp', async () => {
    const { app } = await buildTestApp({ seed: 'platform:\n  base_url: https://emu.example.com\n' });
    const res = await app.inject({ url: '/.well-known/oauth-authorization-server/idp' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      issuer: 'https://emu.example.com/idp',
      authorization_endpoint: 'https://emu.example.com/idp/api/oauth2/authorize',
      token_endpoint: 'https://emu.example.com/idp/api/oauth2/token',
      revocation_endpoint: 'https://emu.example.com/idp/api/oauth2/revoke_token',
      introspection_endpoint: 'https://emu.example.com/idp/api/oauth2/introspect',
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
      code_challenge_methods_supported: ['S256', 'plain'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    });
  });
});

describe('memory stays bounded', () => {
  afterEach(() => vi.useRealTimers());

  it('sweeps expired codes, pending sign-ins, refresh tokens and access tokens', async () => {
    const { app, store, clock } = await buildTestApp({ seed: SEED });
    for (let i = 0; i < 20; i++) {
      await app.inject({ url: `/idp/api/oauth2/authorize?client_id=web&response_type=code` }); // a page left open
      await tokens(app); // a page used (its request taken), a consumed code, an access token, a refresh token
    }
    expect(await store.oauth.counts()).toEqual({ authorizeRequests: 20, codes: 20, refreshTokens: 20, revokedGrants: 0 });
    expect(await store.tokens.countAccess()).toBe(20);
    clock.advance(10 * 60 * 1000);
    expect(await store.oauth.sweepExpired(clock.now())).toBe(20); // the codes
    clock.advance(24 * 60 * 60 * 1000);
    expect(await store.oauth.sweepExpired(clock.now())).toBe(40);
    expect(await store.tokens.sweepExpired(clock.now())).toBe(20);
    expect(await store.oauth.counts()).toEqual({ authorizeRequests: 0, codes: 0, refreshTokens: 0, revokedGrants: 0 });
  });

  it('the sweeper runs both sweeps on its timer', async () => {
    const { app, store, clock } = await buildTestApp({ seed: SEED });
    const t = await tokens(app);
    await postForm(app, REVOKE, { token: t.refresh_token }, auth); // leaves a revoked-grant mark
    expect((await store.oauth.counts()).revokedGrants).toBe(1);
    vi.useFakeTimers();
    const stop = startSweeper(store, clock, 1000);
    clock.advance(25 * 60 * 60 * 1000);
    await vi.advanceTimersByTimeAsync(1000);
    stop();
    vi.useRealTimers(); // the tick's sweep may still be talking to a database (the PostgreSQL pass)
    await vi.waitFor(async () => {
      expect(await store.oauth.counts()).toEqual({ authorizeRequests: 0, codes: 0, refreshTokens: 0, revokedGrants: 0 });
      expect(await store.tokens.countAccess()).toBe(0);
    });
  });
});
