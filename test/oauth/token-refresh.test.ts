// grant_type=refresh_token: rotation, reuse revoking the family, scope narrowing (docs/contracts.md §2).
import { describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { bearer, buildTestApp, mintToken } from '../helpers/app.js';
import { stableUuid } from '../../src/ids.js';
import { TOKEN, basic, codeFor, expectOAuthError, postForm } from './flow.js';

const SEED = `
platform:
  users:
    - { username: alice }
  oauth_clients:
    - { client_id: web, client_secret: s3cret, redirect_uris: ["https://app.example.com/cb"] }
    - { client_id: other, client_secret: o, redirect_uris: ["https://o.example.com/cb"] }
    - { client_id: narrow, redirect_uris: ["https://n.example.com/cb"], allowed_scopes: [offline_access, api:admin-read] }
`;
const auth = basic('web', 's3cret');

async function signedIn(app: FastifyInstance, scope = 'offline_access api:admin-read api:ontologies-read') {
  const code = await codeFor(app, { client_id: 'web', response_type: 'code', scope }, 'alice');
  const res = await postForm(app, TOKEN, { grant_type: 'authorization_code', code }, auth);
  expect(res.statusCode).toBe(200);
  return res.json() as { access_token: string; refresh_token: string; scope: string };
}

const refresh = (app: FastifyInstance, token: string, extra: Record<string, string> = {}, headers: Record<string, string> = auth) =>
  postForm(app, TOKEN, { grant_type: 'refresh_token', refresh_token: token, ...extra }, headers);

describe('refresh_token grant', () => {
  it("mints nothing more once the user's tokens were all revoked (admin revokeAllTokens, and a deleted user)", async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const admin = await mintToken(app, 'admin', ['api:admin-write']);
    const first = await signedIn(app);
    const second = await signedIn(app);
    const alice = stableUuid('user:alice');
    const revoked = await app.inject({ method: 'POST', url: `/api/v2/admin/users/${alice}/revokeAllTokens`, headers: bearer(admin) });
    expect(revoked.statusCode).toBe(204);
    for (const tokens of [first, second]) {
      expectOAuthError(await refresh(app, tokens.refresh_token), 400, 'invalid_grant');
      expect((await app.inject({ url: '/idp/api/me', headers: bearer(tokens.access_token) })).statusCode).toBe(401);
    }
    // The user stays active: a new sign-in works, and so does its refresh token.
    const third = await signedIn(app);
    const rotated = await refresh(app, third.refresh_token);
    expect(rotated.statusCode).toBe(200);
    const deleted = await app.inject({ method: 'DELETE', url: `/api/v2/admin/users/${alice}`, headers: bearer(admin) });
    expect(deleted.statusCode).toBe(204);
    expectOAuthError(await refresh(app, rotated.json().refresh_token), 400, 'invalid_grant');
  });

  it('rotates: a new access token with the original scopes and a new refresh token', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const first = await signedIn(app);
    const res = await refresh(app, first.refresh_token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: first.scope });
    expect(body.refresh_token).toMatch(/^platform_refresh_/);
    expect(body.refresh_token).not.toBe(first.refresh_token);
    expect(body.access_token).not.toBe(first.access_token);
    const me = await app.inject({ url: '/api/v2/admin/users/getCurrent', headers: bearer(body.access_token) });
    expect(me.json().username).toBe('alice');
    // And the new one rotates again.
    expect((await refresh(app, body.refresh_token)).statusCode).toBe(200);
  });

  it('reuse of a retired refresh token is invalid_grant and revokes the whole family', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const first = await signedIn(app);
    const second = (await refresh(app, first.refresh_token)).json();
    expect(expectOAuthError(await refresh(app, first.refresh_token), 400, 'invalid_grant')).toMatch(/already used/);
    expectOAuthError(await refresh(app, second.refresh_token), 400, 'invalid_grant');
    for (const token of [first.access_token, second.access_token]) {
      expect((await app.inject({ url: '/idp/api/me', headers: bearer(token) })).statusCode).toBe(401);
    }
  });

  it('two concurrent uses of one refresh token: the reuse revokes the family, including what the other got', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const first = await signedIn(app);
    const results = await Promise.all([refresh(app, first.refresh_token), refresh(app, first.refresh_token)]);
    expect(results.filter((r) => r.statusCode === 400).length).toBeGreaterThanOrEqual(1);
    for (const won of results.filter((r) => r.statusCode === 200).map((r) => r.json())) {
      expectOAuthError(await refresh(app, won.refresh_token), 400, 'invalid_grant');
      expect((await app.inject({ url: '/idp/api/me', headers: bearer(won.access_token) })).statusCode).toBe(401);
    }
    expect((await app.inject({ url: '/idp/api/me', headers: bearer(first.access_token) })).statusCode).toBe(401);
  });

  it('narrows scopes on request, never widens them, and keeps the original ones for the next refresh', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const first = await signedIn(app);
    const narrowed = await refresh(app, first.refresh_token, { scope: 'api:admin-read' });
    expect(narrowed.json().scope).toBe('api:admin-read');
    const widened = await refresh(app, narrowed.json().refresh_token, { scope: 'api:admin-read api:connectivity-connection-write' });
    expect(expectOAuthError(widened, 400, 'invalid_scope')).toMatch(/api:connectivity-connection-write/);
    // The failed widening did not rotate: the token still works, with the original scopes.
    const again = await refresh(app, narrowed.json().refresh_token);
    expect(again.json().scope).toBe(first.scope);
  });

  it('checks allowed_scopes on refresh too', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const code = await codeFor(app, { client_id: 'narrow', response_type: 'code', scope: 'offline_access api:admin-read' });
    const tokens = (await postForm(app, TOKEN, { grant_type: 'authorization_code', code, client_id: 'narrow' })).json();
    const res = await postForm(app, TOKEN, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: 'narrow',
      scope: 'api:ontologies-read',
    });
    expectOAuthError(res, 400, 'invalid_scope');
  });

  it('is bound to its client', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const first = await signedIn(app);
    expectOAuthError(await refresh(app, first.refresh_token, {}, basic('other', 'o')), 400, 'invalid_grant');
    expect((await refresh(app, first.refresh_token)).statusCode).toBe(200); // not burnt by the other client
  });

  it('requires the client secret of a confidential client', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const first = await signedIn(app);
    expectOAuthError(await refresh(app, first.refresh_token, { client_id: 'web' }, {}), 401, 'invalid_client');
  });

  it('rejects unknown, missing and expired (24 h) refresh tokens', async () => {
    const { app, clock } = await buildTestApp({ seed: SEED });
    expectOAuthError(await refresh(app, 'platform_refresh_nope'), 400, 'invalid_grant');
    expectOAuthError(await postForm(app, TOKEN, { grant_type: 'refresh_token' }, auth), 400, 'invalid_request');
    const first = await signedIn(app);
    clock.advance(24 * 60 * 60 * 1000);
    expectOAuthError(await refresh(app, first.refresh_token), 400, 'invalid_grant');
  });

  it('refuses a deactivated user', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const first = await signedIn(app);
    await app.inject({ method: 'POST', url: '/_emulate/platform/users/alice/deactivate' });
    expectOAuthError(await refresh(app, first.refresh_token), 400, 'invalid_grant');
  });
});
