import { describe, expect, it } from 'vitest';
import { bearer, buildTestApp, mintToken, platformError } from '../helpers/app.js';
import { mintAccessToken } from '../../src/services/oauth/access-tokens.js';
import { stableUuid } from '../../src/ids.js';

const SEED = `
platform:
  users:
    - username: alice
      display_name: Alice A.
      email: alice@example.com
      given_name: Alice
      family_name: Anderson
      organization_rid: ri.organization.main.organization.acme
      attributes:
        team: [red, blue]
    - username: min
    - username: bot
      principal_type: service
      oauth_client_id: pipeline
  enrollment: { rid: ri.enrollment..enrollment.acme, name: Acme }
`;

describe('GET /api/v2/admin/users/getCurrent', () => {
  it('returns the full user shape of a human, reserved attributes merged with custom ones', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const token = await mintToken(app, 'alice', ['api:admin-read']);
    const res = await app.inject({ url: '/api/v2/admin/users/getCurrent', headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({
      id: stableUuid('user:alice'),
      username: 'alice',
      givenName: 'Alice',
      familyName: 'Anderson',
      email: 'alice@example.com',
      realm: 'platform-internal-realm',
      organization: 'ri.organization.main.organization.acme',
      status: 'ACTIVE',
      attributes: {
        team: ['red', 'blue'],
        'idp:realm': ['platform-internal-realm'],
        'idp:givenName': ['Alice'],
        'idp:familyName': ['Anderson'],
        'idp:email:primary': ['alice@example.com'],
        'idp:organization-rid': ['ri.organization.main.organization.acme'],
      },
    });
  });

  it('omits absent names and email, and their reserved attributes', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const res = await app.inject({ url: '/api/v2/admin/users/getCurrent', headers: bearer(await mintToken(app, 'min', ['api:admin-read'])) });
    const body = res.json();
    expect(body).not.toHaveProperty('givenName');
    expect(body).not.toHaveProperty('familyName');
    expect(body).not.toHaveProperty('email');
    expect(body.attributes).toEqual({
      'idp:realm': ['platform-internal-realm'],
      'idp:organization-rid': ['ri.organization.main.organization.default'],
    });
  });

  it('returns a service principal with no organization (the Python SDK refuses "") and only idp:realm', async () => {
    const { app, store, clock } = await buildTestApp({ seed: SEED });
    for (const username of ['bot']) {
      const token = await mintToken(app, username, ['api:admin-read']);
      const body = (await app.inject({ url: '/api/v2/admin/users/getCurrent', headers: bearer(token) })).json();
      expect(body).toEqual({
        id: stableUuid('user:bot'),
        username: 'bot',
        realm: 'platform-internal-realm',
        status: 'ACTIVE',
        attributes: { 'idp:realm': ['platform-internal-realm'] },
      });
    }
    // an automatic service principal (no seeded service user for this client) has the same shape
    const principal = await store.users.servicePrincipalFor('other-client', () => ({
      id: 'f47ac10b-58cc-4372-a567-0e02b2c3d479',
      username: 'other-client',
      displayName: 'other-client',
      realm: 'platform-internal-realm',
      organizationRid: 'ri.organization.main.organization.default',
      principalType: 'service',
      active: true,
      attributes: {},
    }));
    const { access_token } = await mintAccessToken({ store, clock, seed: { limits: {} } }, { principal, clientId: 'other-client', scopes: ['api:admin-read'] });
    const body = (await app.inject({ url: '/api/v2/admin/users/getCurrent', headers: bearer(access_token) })).json();
    expect(body).toEqual({
      id: 'f47ac10b-58cc-4372-a567-0e02b2c3d479',
      username: 'other-client',
      realm: 'platform-internal-realm',
      status: 'ACTIVE',
      attributes: { 'idp:realm': ['platform-internal-realm'] },
    });
  });

  it('answers 403 GetCurrentUserPermissionDenied without api:admin-read', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const res = await app.inject({ url: '/api/v2/admin/users/getCurrent', headers: bearer(await mintToken(app, 'alice', ['api:ontologies-read'])) });
    expect(res.statusCode).toBe(403);
    const err = platformError(res.json());
    expect(err).toMatchObject({ errorCode: 'PERMISSION_DENIED', errorName: 'GetCurrentUserPermissionDenied', parameters: {} });
  });
});

describe('GET /api/v2/admin/enrollments/getCurrent', () => {
  it('returns rid, name and createdTime; preview=true is accepted', async () => {
    const { app, clock } = await buildTestApp({ seed: SEED });
    const token = await mintToken(app, 'alice', ['api:admin-read']);
    for (const url of ['/api/v2/admin/enrollments/getCurrent', '/api/v2/admin/enrollments/getCurrent?preview=true']) {
      const res = await app.inject({ url, headers: bearer(token) });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ rid: 'ri.enrollment..enrollment.acme', name: 'Acme', createdTime: new Date(clock.now()).toISOString() });
    }
  });

  it('uses the default enrollment when none is seeded', async () => {
    const { app } = await buildTestApp();
    const res = await app.inject({ url: '/api/v2/admin/enrollments/getCurrent', headers: bearer(await mintToken(app, 'admin', ['api:admin-read'])) });
    expect(res.json()).toMatchObject({ rid: 'ri.enrollment..enrollment.default', name: 'Default Enrollment' });
  });

  it('answers 403 GetCurrentEnrollmentPermissionDenied without the scope', async () => {
    const { app } = await buildTestApp();
    const res = await app.inject({ url: '/api/v2/admin/enrollments/getCurrent', headers: bearer(await mintToken(app)) });
    expect(res.statusCode).toBe(403);
    expect(platformError(res.json())).toMatchObject({ errorCode: 'PERMISSION_DENIED', errorName: 'GetCurrentEnrollmentPermissionDenied' });
  });
});

describe('GET /idp/api/me', () => {
  it('returns {id, username, displayName, email, organization, groups} for any valid token, with no scope needed (docs/contracts.md §3)', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const res = await app.inject({ url: '/idp/api/me', headers: bearer(await mintToken(app, 'alice')) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: stableUuid('user:alice'),
      username: 'alice',
      displayName: 'Alice A.',
      email: 'alice@example.com',
      organization: { rid: 'ri.organization.main.organization.acme' },
      groups: [],
    });
    // No email seeded: none answered; the default organization still is.
    const min = (await app.inject({ url: '/idp/api/me', headers: bearer(await mintToken(app, 'min')) })).json();
    expect(min).toEqual({
      id: stableUuid('user:min'),
      username: 'min',
      displayName: 'min',
      organization: { rid: 'ri.organization.main.organization.default' },
      groups: [],
    });
  });

  it('a service principal has no email and no organization', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const res = await app.inject({ url: '/idp/api/me', headers: bearer(await mintToken(app, 'bot')) });
    expect(res.json()).toEqual({ id: expect.any(String), username: 'bot', displayName: 'bot', groups: [] });
  });
});

describe('bearer authentication', () => {
  const routes = ['/api/v2/admin/users/getCurrent', '/api/v2/admin/enrollments/getCurrent', '/idp/api/me'];

  it.each(routes)('%s: 401 {message} with WWW-Authenticate for a missing, malformed or unknown token', async (url) => {
    const { app } = await buildTestApp();
    for (const headers of [{}, { authorization: 'Basic abc' }, { authorization: 'Bearer' }, bearer('platform_unknown')]) {
      const res = await app.inject({ url, headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'Requires authentication' });
      expect(res.headers['www-authenticate']).toBe('Bearer realm="platform"');
    }
  });

  it('expires tokens after expires_in seconds (injected clock)', async () => {
    const { app, clock } = await buildTestApp();
    const token = await mintToken(app, 'admin', ['api:admin-read']);
    clock.advance(3600 * 1000 - 1);
    expect((await app.inject({ url: '/idp/api/me', headers: bearer(token) })).statusCode).toBe(200);
    clock.advance(1);
    const res = await app.inject({ url: '/idp/api/me', headers: bearer(token) });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Requires authentication' });
  });

  it('answers 401 invalid_token for a user deactivated after the token was issued, and recovers on activation', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const token = await mintToken(app, 'alice', ['api:admin-read']);
    expect((await app.inject({ method: 'POST', url: '/_emulate/platform/users/alice/deactivate' })).json()).toEqual({ username: 'alice', active: false });
    for (const url of routes) {
      const res = await app.inject({ url, headers: bearer(token) });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'invalid_token', error_description: expect.any(String) });
      expect(res.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    }
    await app.inject({ method: 'POST', url: '/_emulate/platform/users/alice/activate' });
    expect((await app.inject({ url: '/idp/api/me', headers: bearer(token) })).statusCode).toBe(200);
  });

  it('checks the user before the scope: a deactivated user without the scope gets 401, not 403', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const token = await mintToken(app, 'alice', []);
    await app.inject({ method: 'POST', url: '/_emulate/platform/users/alice/deactivate' });
    const res = await app.inject({ url: '/api/v2/admin/users/getCurrent', headers: bearer(token) });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('invalid_token');
  });
});
