// CORS (docs/contracts.md §11) on the wire: which routes, which origins, preflight, and none of it elsewhere.
import { describe, expect, it } from 'vitest';
import { bearer, buildTestApp, mintToken } from '../helpers/app.js';
import { originMatcher } from '../../src/http/cors.js';

const PAGE = 'http://localhost:5173';

describe('originMatcher', () => {
  it('matches exact origins, port wildcards and *', () => {
    const m = originMatcher(['http://localhost:*', 'https://app.example.com/', 'http://[::1]:*']);
    expect(m('http://localhost:5173')).toBe(true);
    expect(m('http://localhost')).toBe(true);
    expect(m('http://LOCALHOST:1')).toBe(true);
    expect(m('http://[::1]:8080')).toBe(true);
    expect(m('https://app.example.com')).toBe(true);
    expect(m('http://localhost.evil.com:80')).toBe(false);
    expect(m('http://localhost:80.evil.com')).toBe(false);
    expect(m('https://localhost:5173')).toBe(false);
    expect(m('https://app.example.com.evil')).toBe(false);
    expect(m('null')).toBe(false);
    expect(originMatcher(['*'])('https://anything.test')).toBe(true);
  });
});

describe('CORS routes', () => {
  it('answers a preflight for /api/v2 and the OAuth token routes from an allowed origin', async () => {
    const { app } = await buildTestApp();
    for (const url of ['/api/v2/admin/users/getCurrent', '/idp/api/oauth2/token', '/idp/api/oauth2/revoke_token', '/idp/api/oauth2/introspect']) {
      const res = await app.inject({
        method: 'OPTIONS',
        url,
        headers: { origin: PAGE, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
      });
      expect(res.statusCode, url).toBe(204);
      expect(res.body).toBe('');
      expect(res.headers['access-control-allow-origin']).toBe(PAGE);
      expect(String(res.headers['access-control-allow-headers'])).toMatch(/authorization, content-type/);
      // The typed client (@osdk/client) sends it on every call from a browser (test/browser/live-list.test.ts).
      expect(String(res.headers['access-control-allow-headers'])).toContain('x-osdk-request-context');
      expect(String(res.headers['access-control-allow-methods'])).toMatch(/POST/);
      expect(res.headers['access-control-max-age']).toBe('86400');
      expect(String(res.headers.vary)).toMatch(/Origin/);
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    }
  });

  it('puts the origin on real answers, success and refusal alike, with Vary: Origin', async () => {
    const { app } = await buildTestApp();
    const token = await mintToken(app, 'admin', ['api:admin-read']);
    let res = await app.inject({ url: '/api/v2/admin/users/getCurrent', headers: { ...bearer(token), origin: PAGE } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(PAGE);
    expect(res.headers.vary).toBe('Origin');
    // A 401 must be readable by the page too, or the app cannot tell a refusal from a network failure.
    res = await app.inject({ url: '/api/v2/admin/users/getCurrent', headers: { origin: PAGE } });
    expect(res.statusCode).toBe(401);
    expect(res.headers['access-control-allow-origin']).toBe(PAGE);
    expect(String(res.headers['access-control-expose-headers'])).toMatch(/www-authenticate/);
    res = await app.inject({ method: 'POST', url: '/idp/api/oauth2/token', headers: { origin: PAGE }, payload: 'grant_type=nope' });
    expect(res.statusCode).toBe(400);
    expect(res.headers['access-control-allow-origin']).toBe(PAGE);
  });

  it('puts the origin on the 404 of an unknown /api/v2 path, the same 404 as elsewhere', async () => {
    const { app } = await buildTestApp();
    for (const [method, url] of [
      ['GET', '/api/v2/nothing/here'],
      ['POST', '/api/v2/admin/users/getCurrent'],
      ['DELETE', '/api/v2/x?y=1'],
    ] as const) {
      const res = await app.inject({ method, url, headers: { origin: PAGE } });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.headers['access-control-allow-origin']).toBe(PAGE);
      expect(res.json()).toMatchObject({ errorCode: 'NOT_FOUND', errorName: 'NotFound', parameters: { path: url.split('?')[0] } });
    }
    const elsewhere = await app.inject({ url: '/api/v3/x', headers: { origin: PAGE } });
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.headers['access-control-allow-origin']).toBeUndefined();
    const entry = app.journal.list({ limit: 1, path: '/api/v2/x' })[0];
    expect(entry).toMatchObject({ status: 404, errorCode: 'NotFound', reason: 'No route answers DELETE /api/v2/x.' });
  });

  it('gives other origins no CORS headers at all', async () => {
    const { app } = await buildTestApp();
    const token = await mintToken(app, 'admin', ['api:admin-read']);
    const res = await app.inject({ url: '/api/v2/admin/users/getCurrent', headers: { ...bearer(token), origin: 'https://evil.example' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const pre = await app.inject({
      method: 'OPTIONS',
      url: '/api/v2/admin/users/getCurrent',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
    });
    expect(pre.statusCode).toBe(204);
    expect(Object.keys(pre.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
  });

  it('leaves the sign-in page, metadata and control routes without CORS', async () => {
    const { app } = await buildTestApp();
    for (const [method, url] of [
      ['GET', '/idp/api/oauth2/authorize?client_id=x'],
      ['GET', '/_emulate/health'],
      ['POST', '/_emulate/platform/reset'],
      ['OPTIONS', '/_emulate/platform/reset'],
      ['OPTIONS', '/idp/api/oauth2/authorize'],
    ] as const) {
      const res = await app.inject({ method, url, headers: { origin: PAGE } });
      expect(res.headers['access-control-allow-origin'], `${method} ${url}`).toBeUndefined();
    }
  });

  it('follows cors_origins from the config', async () => {
    const { app } = await buildTestApp({ seed: { platform: { cors_origins: ['https://app.example.com'] } } });
    let res = await app.inject({
      method: 'OPTIONS',
      url: '/api/v2/admin/users/getCurrent',
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'GET' },
    });
    expect(res.headers['access-control-allow-origin']).toBe('https://app.example.com');
    res = await app.inject({ method: 'OPTIONS', url: '/api/v2/admin/users/getCurrent', headers: { origin: PAGE, 'access-control-request-method': 'GET' } });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('refuses a malformed cors_origins entry at start-up', async () => {
    await expect(buildTestApp({ seed: { platform: { cors_origins: ['localhost:3000'] } } })).rejects.toThrow(/cors_origins/);
  });
});
