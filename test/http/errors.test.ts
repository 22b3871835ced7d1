import { describe, expect, it } from 'vitest';
import { buildTestApp, platformError } from '../helpers/app.js';

describe('unknown routes and framework errors', () => {
  it.each([
    ['GET', '/nope'],
    ['GET', '/api/v2/admin/nope'],
    ['POST', '/api/v2/admin/users/getCurrent'],
    ['DELETE', '/idp/api/me'],
  ])('%s %s answers 404 in the platform envelope', async (method, url) => {
    const { app } = await buildTestApp();
    const res = await app.inject({ method: method as 'GET', url });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(platformError(res.json())).toMatchObject({ errorCode: 'NOT_FOUND', errorName: 'NotFound', parameters: { path: url } });
  });

  it('gives each error a fresh errorInstanceId', async () => {
    const { app } = await buildTestApp();
    const a = (await app.inject({ url: '/nope' })).json();
    const b = (await app.inject({ url: '/nope' })).json();
    expect(a.errorInstanceId).not.toBe(b.errorInstanceId);
  });

  it('answers malformed JSON, wrong content types and oversize bodies in the platform envelope, never 500', async () => {
    const { app } = await buildTestApp();
    const url = '/_emulate/platform/tokens';
    const cases = [
      { payload: '{bad', headers: { 'content-type': 'application/json' }, status: 400, code: 'INVALID_ARGUMENT' },
      { payload: 'username=admin', headers: { 'content-type': 'text/plain' }, status: 400, code: 'INVALID_ARGUMENT' },
      { payload: 'null', headers: { 'content-type': 'application/json' }, status: 400, code: 'INVALID_ARGUMENT' },
      { payload: '[]', headers: { 'content-type': 'application/json' }, status: 400, code: 'INVALID_ARGUMENT' },
      {
        payload: JSON.stringify({ username: 'x'.repeat(1024 * 1024 + 10) }),
        headers: { 'content-type': 'application/json' },
        status: 413,
        code: 'REQUEST_ENTITY_TOO_LARGE',
      },
    ];
    for (const c of cases) {
      const res = await app.inject({ method: 'POST', url, payload: c.payload, headers: c.headers });
      expect(res.statusCode, c.payload.slice(0, 20)).toBe(c.status);
      expect(platformError(res.json()).errorCode).toBe(c.code);
    }
  });

  it('renders an unexpected exception as 500 with an id and no detail', async () => {
    const { app, store } = await buildTestApp();
    store.users.byUsername = async () => {
      throw new Error('database exploded: secret-detail');
    };
    const res = await app.inject({ method: 'POST', url: '/_emulate/platform/tokens', payload: { username: 'admin' } });
    expect(res.statusCode).toBe(500);
    const err = platformError(res.json());
    expect(err).toMatchObject({ errorCode: 'INTERNAL', errorName: 'Internal', parameters: {} });
    expect(res.body).not.toContain('secret-detail');
    expect(res.body).not.toContain('exploded');
  });
});
