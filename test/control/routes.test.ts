import { describe, expect, it } from 'vitest';
import { bearer, buildTestApp, mintToken, platformError } from '../helpers/app.js';

describe('control routes', () => {
  it('GET /_emulate/health answers ok', async () => {
    const { app } = await buildTestApp();
    const res = await app.inject({ url: '/_emulate/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('mints a token response as the token endpoint would, scopes de-duplicated', async () => {
    const { app } = await buildTestApp();
    const res = await app.inject({ method: 'POST', url: '/_emulate/platform/tokens', payload: { username: 'admin', scopes: ['api:admin-read', 'x', 'x'] } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'scope', 'token_type']);
    expect(body.access_token).toMatch(/^platform_[A-Za-z0-9_-]{43}$/);
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'api:admin-read x' });
  });

  it('answers 404 UserNotFound and 409 UserDeactivated', async () => {
    const { app } = await buildTestApp();
    let res = await app.inject({ method: 'POST', url: '/_emulate/platform/tokens', payload: { username: 'ghost' } });
    expect(res.statusCode).toBe(404);
    expect(platformError(res.json())).toMatchObject({ errorName: 'UserNotFound', parameters: { username: 'ghost' } });
    res = await app.inject({ method: 'POST', url: '/_emulate/platform/users/ghost/deactivate' });
    expect(res.statusCode).toBe(404);
    await app.inject({ method: 'POST', url: '/_emulate/platform/users/admin/deactivate' });
    res = await app.inject({ method: 'POST', url: '/_emulate/platform/tokens', payload: { username: 'admin' } });
    expect(res.statusCode).toBe(409);
    expect(platformError(res.json()).errorName).toBe('UserDeactivated');
  });

  it('rejects a body with unknown or mistyped fields', async () => {
    const { app } = await buildTestApp();
    for (const payload of [{ username: 'admin', scope: 'x' }, { username: 5 }, {}]) {
      const res = await app.inject({ method: 'POST', url: '/_emulate/platform/tokens', payload });
      expect(res.statusCode).toBe(400);
      expect(platformError(res.json()).errorName).toBe('InvalidArgument');
    }
  });

  it('reset forgets tokens and user changes and re-applies the seed', async () => {
    const { app } = await buildTestApp({ seed: 'platform:\n  users: [{ username: alice }]\n' });
    const token = await mintToken(app, 'alice', []);
    await app.inject({ method: 'POST', url: '/_emulate/platform/users/alice/deactivate' });
    const res = await app.inject({ method: 'POST', url: '/_emulate/platform/reset' });
    expect(res.json()).toEqual({ status: 'ok' });
    expect((await app.inject({ url: '/idp/api/me', headers: bearer(token) })).statusCode).toBe(401);
    expect((await app.inject({ url: '/idp/api/me', headers: bearer(await mintToken(app, 'alice')) })).statusCode).toBe(200);
  });

  it('off loopback, answers only with the configured control token, and 404 otherwise', async () => {
    const withToken = await buildTestApp({ host: '0.0.0.0', seed: 'platform:\n  control_token: let-me-in\n' });
    const url = '/_emulate/platform/tokens';
    const payload = { username: 'admin' };
    expect((await withToken.app.inject({ method: 'POST', url, payload })).statusCode).toBe(404);
    expect((await withToken.app.inject({ method: 'POST', url, payload, headers: bearer('wrong') })).statusCode).toBe(404);
    expect((await withToken.app.inject({ method: 'POST', url, payload, headers: bearer('let-me-in') })).statusCode).toBe(200);

    const without = await buildTestApp({ host: '0.0.0.0' });
    const res = await without.app.inject({ method: 'POST', url, payload, headers: bearer('anything') });
    expect(res.statusCode).toBe(404);
    expect(platformError(res.json()).errorName).toBe('NotFound');
    // health stays public: it reveals nothing
    expect((await without.app.inject({ url: '/_emulate/health' })).statusCode).toBe(200);
  });
});
