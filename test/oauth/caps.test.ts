// Memory bounded by count (docs/contracts.md §8): pending sign-ins and codes forget their oldest past the cap (a half-done
// sign-in at worst); access and refresh tokens are refused past it (temporarily_unavailable), since evicting one
// would surprise a caller still holding it. Small caps set in the seed's `limits`.
import { describe, expect, it } from 'vitest';
import { parseTestSeed } from '../helpers/seed.js';
import type { FastifyInstance } from 'fastify';
import { bearer, buildTestApp, mintToken, platformError } from '../helpers/app.js';
import { oauthLimitsOf } from '../../src/services/oauth/caps.js';
import { type SeedError } from '../../src/seed/load.js';
import { sweepExpired } from '../../src/services/oauth/sweeper.js';
import { AUTHORIZE, CALLBACK, TOKEN, authorizeUrl, basic, codeFor, expectHtmlError, expectOAuthError, postForm, signInForm } from './flow.js';

const seed = (limits: string) => `
platform:
  limits: { ${limits} }
  users: [{ username: alice }]
  oauth_clients:
    - { client_id: web, client_secret: s3cret, redirect_uris: ["https://app.example.com/cb"] }
`;
const auth = basic('web', 's3cret');
const AUTH_PARAMS = { client_id: 'web', response_type: 'code', scope: 'api:admin-read' };
const OFFLINE = { ...AUTH_PARAMS, scope: 'offline_access api:admin-read' };

const clientCredentials = (app: FastifyInstance) => postForm(app, TOKEN, { grant_type: 'client_credentials' }, auth);
const exchange = (app: FastifyInstance, code: string) => postForm(app, TOKEN, { grant_type: 'authorization_code', code }, auth);
const refresh = (app: FastifyInstance, token: string) => postForm(app, TOKEN, { grant_type: 'refresh_token', refresh_token: token }, auth);

async function signedIn(app: FastifyInstance) {
  const res = await exchange(app, await codeFor(app, OFFLINE, 'alice'));
  expect(res.statusCode).toBe(200);
  return res.json() as { access_token: string; refresh_token: string };
}

describe('limits: config and defaults', () => {
  it('defaults a test suite never meets', () => {
    const oauthLimits = oauthLimitsOf(parseTestSeed(''));
    expect(oauthLimits).toEqual({
      maxPendingSignIns: 10_000,
      maxAuthorizationCodes: 10_000,
      maxAccessTokens: 100_000,
      maxRefreshTokens: 100_000,
      maxServicePrincipals: 10_000,
    });
  });

  it('reads platform.limits and refuses a cap below 1 or a mistyped key, with its path', () => {
    const oauthLimits = oauthLimitsOf(parseTestSeed(seed('max_pending_sign_ins: 5, max_authorization_codes: 6, max_access_tokens: 7, max_refresh_tokens: 8')));
    expect(oauthLimits).toEqual({ maxPendingSignIns: 5, maxAuthorizationCodes: 6, maxAccessTokens: 7, maxRefreshTokens: 8, maxServicePrincipals: 10_000 });
    try {
      parseTestSeed('platform:\n  limits:\n    max_access_tokens: 0\n    max_refresh_token: 5\n');
      expect.unreachable();
    } catch (err) {
      const problems = (err as SeedError).problems;
      expect(problems).toHaveLength(2);
      expect(problems).toContain('platform.limits.max_access_tokens: expected integer to be greater or equal to 1');
      expect(problems).toContain('platform.limits.max_refresh_token: unknown key (did you mean `max_refresh_tokens`?)');
    }
  });
});

describe('pending sign-ins: past the cap the oldest is forgotten', () => {
  it('keeps the count at the cap; the oldest page then says the sign-in expired, the newest works', async () => {
    const { app, store } = await buildTestApp({ seed: seed('max_pending_sign_ins: 3') });
    const pages: ReturnType<typeof signInForm>[] = [];
    for (let i = 0; i < 4; i++) pages.push(signInForm(await app.inject({ url: authorizeUrl(AUTH_PARAMS) })));
    expect((await store.oauth.counts()).authorizeRequests).toBe(3);
    for (let i = 0; i < 20; i++) expect((await app.inject({ url: authorizeUrl(AUTH_PARAMS) })).statusCode).toBe(200);
    expect((await store.oauth.counts()).authorizeRequests).toBe(3);

    const submit = (form: (typeof pages)[number]) =>
      postForm(app, CALLBACK, { request_id: form.requestId, csrf_token: form.csrf, username: 'alice' }, { cookie: form.cookie });
    expectHtmlError(await submit(pages[0]!), /Sign-in expired/);
    const fresh = signInForm(await app.inject({ url: authorizeUrl(AUTH_PARAMS) }));
    expect((await submit(fresh)).statusCode).toBe(302);
  });
});

describe('authorization codes: past the cap the oldest is forgotten', () => {
  it('keeps the count at the cap; the oldest code is then invalid_grant, the newest exchanges', async () => {
    const { app, store } = await buildTestApp({ seed: seed('max_authorization_codes: 2') });
    const hinted = async () => {
      const res = await app.inject({ url: `${AUTHORIZE}?${new URLSearchParams({ ...AUTH_PARAMS, login_hint: 'alice' })}` });
      expect(res.statusCode).toBe(302);
      return new URL(String(res.headers.location)).searchParams.get('code')!;
    };
    const codes = [await hinted(), await hinted(), await hinted()];
    expect((await store.oauth.counts()).codes).toBe(2);
    expectOAuthError(await exchange(app, codes[0]!), 400, 'invalid_grant');
    expect((await exchange(app, codes[2]!)).statusCode).toBe(200);
    for (let i = 0; i < 10; i++) await hinted();
    expect((await store.oauth.counts()).codes).toBe(2);
  });
});

describe('access tokens: past the cap new ones are refused, never an older one evicted', () => {
  it('answers 503 temporarily_unavailable naming the limit, and mints again once there is room', async () => {
    const { app, store, clock } = await buildTestApp({ seed: seed('max_access_tokens: 3') });
    const tokens = [];
    for (let i = 0; i < 3; i++) {
      const res = await clientCredentials(app);
      expect(res.statusCode).toBe(200);
      tokens.push(res.json().access_token as string);
    }
    const refused = await clientCredentials(app);
    const description = expectOAuthError(refused, 503, 'temporarily_unavailable');
    expect(description).toContain('limits.max_access_tokens');
    expect(description).toContain('3');
    expect(await store.tokens.countAccess()).toBe(3);
    // Every token minted before is still good: nothing was evicted.
    for (const token of tokens) expect((await app.inject({ url: '/idp/api/me', headers: bearer(token) })).statusCode).toBe(200);

    // A revoked token makes room.
    expect((await postForm(app, '/idp/api/oauth2/revoke_token', { token: tokens[0]! }, auth)).statusCode).toBe(200);
    expect((await clientCredentials(app)).statusCode).toBe(200);
    expectOAuthError(await clientCredentials(app), 503, 'temporarily_unavailable');

    // Expired and swept tokens make room.
    clock.advance(3600_000 + 1);
    await sweepExpired(store, clock);
    expect((await clientCredentials(app)).statusCode).toBe(200);
  });

  it('the control route that mints tokens is refused in the platform envelope', async () => {
    const { app } = await buildTestApp({ seed: seed('max_access_tokens: 1') });
    await mintToken(app, 'alice');
    const res = await app.inject({ method: 'POST', url: '/_emulate/platform/tokens', payload: { username: 'alice', scopes: [] } });
    expect(res.statusCode).toBe(409);
    const body = platformError(res.json());
    expect(body.errorName).toBe('AccessTokenLimitReached');
    expect(body.errorDescription).toContain('limits.max_access_tokens');
  });

  it('a code exchanged while full is refused without leaving a refresh token behind', async () => {
    const { app, store } = await buildTestApp({ seed: seed('max_access_tokens: 1') });
    const code = await codeFor(app, OFFLINE, 'alice');
    await clientCredentials(app);
    expectOAuthError(await exchange(app, code), 503, 'temporarily_unavailable');
    expect((await store.oauth.counts()).refreshTokens).toBe(0);
  });

  it('a refresh while full is refused and leaves the refresh token usable', async () => {
    const { app, store } = await buildTestApp({ seed: seed('max_access_tokens: 2') });
    const first = await signedIn(app);
    await clientCredentials(app); // now full
    expectOAuthError(await refresh(app, first.refresh_token), 503, 'temporarily_unavailable');
    // Not rotated: once there is room the same refresh token works (a rotation would have made this a reuse).
    await store.tokens.revokeAccess(first.access_token);
    const again = await refresh(app, first.refresh_token);
    expect(again.statusCode).toBe(200);
  });
});

describe('refresh tokens: past the cap new authorizations are refused, rotation always works', () => {
  it('refuses a third offline authorization with 503, leaving no access token behind', async () => {
    const { app, store } = await buildTestApp({ seed: seed('max_refresh_tokens: 2') });
    await signedIn(app);
    await signedIn(app);
    const accessBefore = await store.tokens.countAccess();
    const code = await codeFor(app, OFFLINE, 'alice');
    const description = expectOAuthError(await exchange(app, code), 503, 'temporarily_unavailable');
    expect(description).toContain('limits.max_refresh_tokens');
    expect(await store.tokens.countAccess()).toBe(accessBefore);
    expect((await store.oauth.counts()).refreshTokens).toBe(2);
    // Without offline_access no refresh token is needed: still served.
    expect((await exchange(app, await codeFor(app, AUTH_PARAMS, 'alice'))).statusCode).toBe(200);
  });

  it('rotates at the cap by forgetting the oldest retired token; the count never passes the cap', async () => {
    const { app, store } = await buildTestApp({ seed: seed('max_refresh_tokens: 2') });
    const a = await signedIn(app);
    const b = await signedIn(app);
    let current = a.refresh_token;
    for (let i = 0; i < 5; i++) {
      const res = await refresh(app, current);
      expect(res.statusCode).toBe(200);
      current = res.json().refresh_token;
      expect((await store.oauth.counts()).refreshTokens).toBeLessThanOrEqual(2);
    }
    expect((await refresh(app, b.refresh_token)).statusCode).toBe(200);
  });

  it('keeps retired tokens while there is room, so a reuse still revokes the family', async () => {
    const { app } = await buildTestApp({ seed: seed('max_refresh_tokens: 10') });
    const first = await signedIn(app);
    const next = (await refresh(app, first.refresh_token)).json().refresh_token as string;
    expectOAuthError(await refresh(app, first.refresh_token), 400, 'invalid_grant');
    expectOAuthError(await refresh(app, next), 400, 'invalid_grant');
  });
});

describe('revoked-authorization marks: as many as refresh tokens, the oldest forgotten', () => {
  it('a flood of replayed codes keeps at most max_refresh_tokens marks', async () => {
    const { app, store } = await buildTestApp({ seed: seed('max_refresh_tokens: 3') });
    for (let i = 0; i < 6; i++) {
      const code = await codeFor(app, AUTH_PARAMS, 'alice');
      expect((await exchange(app, code)).statusCode).toBe(200);
      expectOAuthError(await exchange(app, code), 400, 'invalid_grant'); // a replay revokes the grant
    }
    expect((await store.oauth.counts()).revokedGrants).toBe(3);
  });
});
