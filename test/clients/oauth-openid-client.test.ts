// Conformance: openid-client 6.8.9 (pinned) against a live server, discovering it by RFC 8414 metadata.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import { startEmulator, type Emulator } from '../../src/index.js';

let emulator: Emulator;
const REDIRECT = 'http://127.0.0.1:8765/callback';

beforeAll(async () => {
  emulator = await startEmulator({
    seed: `
platform:
  users:
    - { username: alice, given_name: Alice, email: alice@example.com }
  oauth_clients:
    - { client_id: web-app, client_secret: "web secret/+", redirect_uris: ["${REDIRECT}"] }
    - { client_id: machine, client_secret: machine-secret, grant_types: [client_credentials] }
`,
  });
});
afterAll(() => emulator.close());

const discover = (clientId: string, secret: string, auth: client.ClientAuth) =>
  client.discovery(new URL(`${emulator.url}/idp`), clientId, { client_secret: secret }, auth, {
    algorithm: 'oauth2',
    execute: [client.allowInsecureRequests],
  });

async function getCurrent(token: string): Promise<Response> {
  return fetch(`${emulator.url}/api/v2/admin/users/getCurrent`, { headers: { authorization: `Bearer ${token}` } });
}

describe('openid-client', () => {
  it('discovers the server through RFC 8414 metadata', async () => {
    const config = await discover('web-app', 'web secret/+', client.ClientSecretBasic());
    const meta = config.serverMetadata();
    expect(meta.issuer).toBe(`${emulator.url}/idp`);
    expect(meta.token_endpoint).toBe(`${emulator.url}/idp/api/oauth2/token`);
    expect(meta.supportsPKCE()).toBe(true);
  });

  it('authorization code with PKCE through to getCurrent, then refresh and revocation', async () => {
    const config = await discover('web-app', 'web secret/+', client.ClientSecretBasic());
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: 'api:admin-read offline_access',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
    url.searchParams.set('login_hint', 'alice'); // headless: the emulator picks alice without the page
    const redirect = await fetch(url, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const callback = new URL(redirect.headers.get('location')!);
    expect(callback.origin + callback.pathname).toBe(REDIRECT);

    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
    expect(tokens.token_type).toBe('bearer'); // openid-client normalises the case
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.scope).toBe('api:admin-read offline_access');
    expect(tokens.refresh_token).toMatch(/^platform_refresh_/);
    const me = await getCurrent(tokens.access_token);
    expect(await me.json()).toMatchObject({ username: 'alice', givenName: 'Alice', email: 'alice@example.com' });

    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(refreshed.scope).toBe('api:admin-read offline_access');
    expect((await getCurrent(refreshed.access_token)).status).toBe(200);

    const introspected = await client.tokenIntrospection(config, refreshed.access_token);
    expect(introspected).toMatchObject({ active: true, username: 'alice', client_id: 'web-app' });

    await client.tokenRevocation(config, refreshed.access_token);
    expect((await getCurrent(refreshed.access_token)).status).toBe(401);
    expect((await client.tokenIntrospection(config, refreshed.access_token)).active).toBe(false);
  });

  it('rejects a PKCE mismatch with invalid_grant', async () => {
    const config = await discover('web-app', 'web secret/+', client.ClientSecretPost());
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: 'api:admin-read',
      code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
      state,
      login_hint: 'alice',
    });
    const callback = new URL((await fetch(url, { redirect: 'manual' })).headers.get('location')!);
    const error = await client
      .authorizationCodeGrant(config, callback, { pkceCodeVerifier: client.randomPKCECodeVerifier(), expectedState: state })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(client.ResponseBodyError);
    expect(error).toMatchObject({ error: 'invalid_grant', status: 400 });
  });

  for (const [name, auth] of [
    ['client_secret_basic', () => client.ClientSecretBasic()],
    ['client_secret_post', () => client.ClientSecretPost()],
  ] as const) {
    it(`client credentials with ${name}`, async () => {
      const config = await discover('machine', 'machine-secret', auth());
      const tokens = await client.clientCredentialsGrant(config, { scope: 'api:admin-read' });
      expect(tokens.scope).toBe('api:admin-read');
      expect(tokens.refresh_token).toBeUndefined();
      const me = await (await getCurrent(tokens.access_token)).json();
      expect(me).toMatchObject({ username: 'machine' });
      expect(me).not.toHaveProperty('organization');
    });
  }

  it('surfaces a wrong secret as invalid_client 401 (with a Basic challenge after Basic)', async () => {
    const viaBasic = await discover('machine', 'wrong', client.ClientSecretBasic());
    const challenged = await client.clientCredentialsGrant(viaBasic, { scope: 'api:admin-read' }).catch((e: unknown) => e);
    expect(challenged).toBeInstanceOf(client.WWWAuthenticateChallengeError);
    const challenge = challenged as client.WWWAuthenticateChallengeError;
    expect(challenge.status).toBe(401);
    expect(challenge.cause[0]).toMatchObject({ scheme: 'basic', parameters: { realm: 'platform' } });
    expect(await challenge.response.json()).toMatchObject({ error: 'invalid_client' });

    const viaPost = await discover('machine', 'wrong', client.ClientSecretPost());
    const error = await client.clientCredentialsGrant(viaPost, { scope: 'api:admin-read' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(client.ResponseBodyError);
    expect(error).toMatchObject({ error: 'invalid_client', status: 401 });
  });
});
