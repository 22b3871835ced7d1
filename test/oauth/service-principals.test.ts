// Open mode (docs/contracts.md §2, §8): client_credentials with a client_id never seen before makes a service principal,
// and nothing expires them, so `limits.max_service_principals` bounds them: past it a new client_id is refused
// (503 temporarily_unavailable) while the ones already made keep working. A refused request creates nothing.
// Seeded service users and principals of seeded clients never count.
import { describe, expect, it } from 'vitest';
import { parseTestSeed } from '../helpers/seed.js';
import type { FastifyInstance } from 'fastify';
import { bearer, buildTestApp } from '../helpers/app.js';
import { stableUuid } from '../../src/ids.js';
import { oauthLimitsOf } from '../../src/services/oauth/caps.js';
import { type SeedError } from '../../src/seed/load.js';
import type { Store } from '../../src/store/store.js';
import { TOKEN, basic, expectOAuthError, postForm } from './flow.js';

const openSeed = (limits: string, users = '[]') => `
platform:
  limits: { ${limits} }
  users: ${users}
`;

const tokenFor = (app: FastifyInstance, clientId: string) =>
  postForm(app, TOKEN, { grant_type: 'client_credentials', client_id: clientId, scope: 'api:admin-read' });

const principalOf = (store: Store, clientId: string) => store.users.byId(stableUuid(`service-principal:${clientId}`));

async function whoAmI(app: FastifyInstance, token: string): Promise<string> {
  const res = await app.inject({ url: '/api/v2/admin/users/getCurrent', headers: bearer(token) });
  expect(res.statusCode).toBe(200);
  return res.json().username as string;
}

describe('limits.max_service_principals: config', () => {
  it('defaults to 10000 and refuses a cap below 1 with its path', () => {
    expect(oauthLimitsOf(parseTestSeed('')).maxServicePrincipals).toBe(10_000);
    expect(oauthLimitsOf(parseTestSeed(openSeed('max_service_principals: 4'))).maxServicePrincipals).toBe(4);
    try {
      parseTestSeed(openSeed('max_service_principals: 0'));
      expect.unreachable();
    } catch (err) {
      expect((err as SeedError).problems).toEqual(['platform.limits.max_service_principals: expected integer to be greater or equal to 1']);
    }
  });
});

describe('open mode: past the cap a new client_id is refused', () => {
  it('answers 503 naming the limit, creates nothing, and keeps serving the client ids it knows', async () => {
    const { app, store } = await buildTestApp({ seed: openSeed('max_service_principals: 3') });
    const tokens: string[] = [];
    for (const id of ['c1', 'c2', 'c3']) {
      const res = await tokenFor(app, id);
      expect(res.statusCode).toBe(200);
      tokens.push(res.json().access_token as string);
    }
    for (let i = 0; i < 5; i++) {
      const description = expectOAuthError(await tokenFor(app, `fresh-${i}`), 503, 'temporarily_unavailable');
      expect(description).toContain('limits.max_service_principals');
      expect(description).toContain('3');
      expect(await principalOf(store, `fresh-${i}`)).toBeUndefined();
    }
    // No token was left behind by the refusals either.
    expect(await store.tokens.countAccess()).toBe(3);

    // The principals already made keep working, old tokens and new ones alike.
    expect(await whoAmI(app, tokens[0]!)).toBe('c1');
    const again = await tokenFor(app, 'c2');
    expect(again.statusCode).toBe(200);
    expect(await whoAmI(app, again.json().access_token)).toBe('c2');

    // A reset forgets them and makes room.
    expect((await app.inject({ method: 'POST', url: '/_emulate/platform/reset' })).statusCode).toBeLessThan(300);
    expect((await tokenFor(app, 'fresh-0')).statusCode).toBe(200);
  });

  it('a token refused at max_access_tokens leaves no principal behind', async () => {
    const { app, store } = await buildTestApp({ seed: openSeed('max_access_tokens: 1') });
    const first = await tokenFor(app, 'c1');
    expect(first.statusCode).toBe(200);
    expect(expectOAuthError(await tokenFor(app, 'c2'), 503, 'temporarily_unavailable')).toContain('limits.max_access_tokens');
    expect(await principalOf(store, 'c2')).toBeUndefined();

    // Room again: now it is made, once.
    expect((await postForm(app, '/idp/api/oauth2/revoke_token', { token: first.json().access_token, client_id: 'c1' })).statusCode).toBe(200);
    const second = await tokenFor(app, 'c2');
    expect(second.statusCode).toBe(200);
    expect(await principalOf(store, 'c2')).toMatchObject({ username: 'c2', principalType: 'service' });
    expect(await whoAmI(app, second.json().access_token)).toBe('c2');
  });

  it('a seeded service user never counts and is never refused, in open mode', async () => {
    const users = '[{ username: robot, principal_type: service, oauth_client_id: svc }]';
    const { app, store } = await buildTestApp({ seed: openSeed('max_service_principals: 1', users) });
    expect((await tokenFor(app, 'c1')).statusCode).toBe(200);
    expectOAuthError(await tokenFor(app, 'c2'), 503, 'temporarily_unavailable');
    for (let i = 0; i < 3; i++) {
      const res = await tokenFor(app, 'svc');
      expect(res.statusCode).toBe(200);
      expect(await whoAmI(app, res.json().access_token)).toBe('robot');
    }
    expect(await principalOf(store, 'svc')).toBeUndefined();
    // Each request left exactly its own token: c1's and three of robot's.
    expect(await store.tokens.countAccess()).toBe(4);
  });
});

describe('seeded clients never count', () => {
  it('every seeded client gets its principal however small the cap', async () => {
    const { app } = await buildTestApp({
      seed: `
platform:
  limits: { max_service_principals: 1 }
  oauth_clients:
    - { client_id: a, client_secret: s }
    - { client_id: b, client_secret: s }
    - { client_id: c, client_secret: s }
`,
    });
    for (const id of ['a', 'b', 'c']) {
      const res = await postForm(app, TOKEN, { grant_type: 'client_credentials', scope: 'api:admin-read' }, basic(id, 's'));
      expect(res.statusCode).toBe(200);
      expect(await whoAmI(app, res.json().access_token)).toBe(id);
    }
  });
});
