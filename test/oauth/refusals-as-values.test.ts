// The token endpoint's refusals are returned, not thrown (src/services/oauth/client-auth.ts says why: a throw
// cost V8 a message object per async layer it crossed, and refused token requests were dearer than good ones in
// bench bad-input). This pins the trick where it lives: the refusals the fast lane answers come back as values,
// and the route's `token()` still throws them for the framework's renderer.
import { describe, expect, it } from 'vitest';
import { OAuthError } from '../../src/errors.js';
import { ManualClock } from '../../src/clock.js';
import { token, tokenOutcome } from '../../src/services/oauth/token-endpoint.js';
import type { TokenDeps } from '../../src/services/oauth/deps.js';
import { applyTestSeed, parseTestSeed } from '../helpers/seed.js';
import { openTestStore } from '../helpers/store.js';
import { SERVICES, servicePartsOf } from '../../src/services/index.js';

const SEED = `
platform:
  oauth_clients:
    - { client_id: ci, client_secret: s3cret }
    - { client_id: narrow, client_secret: n, allowed_scopes: [api:admin-read] }
`;

async function tokenDeps(): Promise<TokenDeps> {
  const seed = parseTestSeed(SEED);
  const clock = new ManualClock();
  const store = await openTestStore(servicePartsOf(SERVICES));
  await applyTestSeed(seed, store, clock);
  return { store, clock, seed, scopeMatrix: ['api:admin-read'] };
}

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

/** The outcome, failing the test if producing it threw. */
async function outcomeOf(deps: TokenDeps, authorization: string | undefined, params: Record<string, string>) {
  let pending: ReturnType<typeof tokenOutcome>;
  try {
    pending = tokenOutcome(deps, authorization, params);
  } catch (err) {
    throw new Error(`tokenOutcome threw ${String(err)}`);
  }
  return pending instanceof OAuthError ? pending : await pending;
}

describe('token refusals as values', () => {
  const cases: Array<[string, string | undefined, Record<string, string>, string, number]> = [
    ['no grant_type', basic('ci', 's3cret'), {}, 'invalid_request', 400],
    ['an unknown grant_type', basic('ci', 's3cret'), { grant_type: 'password' }, 'unsupported_grant_type', 400],
    ['a malformed Basic header', 'Basic %%%', { grant_type: 'client_credentials' }, 'invalid_client', 401],
    ['no client named', undefined, { grant_type: 'client_credentials' }, 'invalid_request', 400],
    ['a wrong secret', basic('ci', 'wrong'), { grant_type: 'client_credentials' }, 'invalid_client', 401],
    ['an unknown client', basic('nobody', 'x'), { grant_type: 'client_credentials' }, 'invalid_client', 401],
    ['a scope the client may not have', basic('narrow', 'n'), { grant_type: 'client_credentials', scope: 'api:admin-write' }, 'invalid_scope', 400],
  ];
  for (const [name, authorization, params, error, status] of cases) {
    it(`${name}: returned as ${error}, and thrown by the route's form`, async () => {
      const deps = await tokenDeps();
      const outcome = await outcomeOf(deps, authorization, params);
      expect(outcome).toBeInstanceOf(OAuthError);
      expect((outcome as OAuthError).error).toBe(error);
      expect((outcome as OAuthError).status).toBe(status);
      let thrown: unknown;
      try {
        await token(deps, authorization, params);
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(OAuthError);
      expect((thrown as OAuthError).error).toBe(error);
      await deps.store.close();
    });
  }

  it('a good request is the token, from both forms', async () => {
    const deps = await tokenDeps();
    const outcome = await outcomeOf(deps, basic('ci', 's3cret'), { grant_type: 'client_credentials' });
    expect(outcome).not.toBeInstanceOf(OAuthError);
    expect((outcome as { token_type: string }).token_type).toBe('Bearer');
    expect((await token(deps, basic('ci', 's3cret'), { grant_type: 'client_credentials' })).token_type).toBe('Bearer');
    await deps.store.close();
  });
});
