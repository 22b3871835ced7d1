// Conformance: the platform's OAuth client, @osdk/oauth 1.13.0 (pinned), with ctxPath 'idp', against a
// live server. Its Node build drives the browser through `window.location`, `window.history` and
// `sessionStorage`; small stand-ins play the browser here (read node_modules/@osdk/oauth/build/esm).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createConfidentialOauthClient, createPublicOauthClient } from '@osdk/oauth';
import { startEmulator, type Emulator } from '../../src/index.js';

let emulator: Emulator;
const APP = 'http://127.0.0.1:8766';
const REDIRECT = `${APP}/auth/callback`;

beforeAll(async () => {
  emulator = await startEmulator({
    seed: `
platform:
  users:
    - { username: alice, email: alice@example.com }
  oauth_clients:
    - { client_id: service-app, client_secret: service-secret, grant_types: [client_credentials], allowed_scopes: [api:admin-read] }
    - { client_id: spa, redirect_uris: ["${REDIRECT}"] }
`,
  });
});
afterAll(() => emulator.close());

const getCurrent = (token: string) => fetch(`${emulator.url}/api/v2/admin/users/getCurrent`, { headers: { authorization: `Bearer ${token}` } });

/** The browser as the library sees it: an address bar, history, and session storage. */
function installFakeBrowser() {
  const browser = { url: new URL(`${APP}/home`), assigned: [] as string[] };
  const session = new Map<string, string>();
  Object.assign(globalThis, {
    window: {
      location: {
        get href() {
          return browser.url.href;
        },
        get pathname() {
          return browser.url.pathname;
        },
        toString: () => browser.url.href,
        assign: (to: string) => void browser.assigned.push(to),
      },
      history: { replaceState: (_data: unknown, _title: string, to: string) => (browser.url = new URL(to, browser.url)) },
    },
    sessionStorage: {
      getItem: (k: string) => session.get(k) ?? null,
      setItem: (k: string, v: string) => void session.set(k, v),
      removeItem: (k: string) => void session.delete(k),
    },
  });
  return browser;
}

afterEach(() => {
  const g = globalThis as Record<string, unknown>;
  delete g.window;
  delete g.sessionStorage;
});

describe('@osdk/oauth with ctxPath idp', () => {
  it('confidential client: a client-credentials token, then sign-out revokes it', async () => {
    const getToken = createConfidentialOauthClient('service-app', 'service-secret', emulator.url, ['api:admin-read'], undefined, 'idp');
    const token = await getToken();
    expect(token).toMatch(/^platform_/);
    const me = await (await getCurrent(token)).json();
    expect(me).toMatchObject({ username: 'service-app' });
    expect(me).not.toHaveProperty('organization');
    expect(await getToken()).toBe(token); // cached until it expires
    await getToken.signOut();
    expect((await getCurrent(token)).status).toBe(401);
  });

  it('confidential client: a scope outside allowed_scopes is refused', async () => {
    const getToken = createConfidentialOauthClient('service-app', 'service-secret', emulator.url, ['api:ontologies-read'], undefined, 'idp');
    await expect(getToken()).rejects.toThrow(/invalid_scope/);
  });

  it('public client with PKCE: redirect to authorize, come back with the code, get a token', async () => {
    const browser = installFakeBrowser();
    const getToken = createPublicOauthClient('spa', emulator.url, REDIRECT, { ctxPath: 'idp', scopes: ['api:admin-read'] });

    // First call: no token and no pending sign-in, so the library sends the browser to authorize.
    await expect(getToken()).rejects.toThrow(/Unable to redirect/);
    expect(browser.assigned).toHaveLength(1);
    const authorize = new URL(browser.assigned[0]!);
    expect(authorize.origin + authorize.pathname).toBe(`${emulator.url}/idp/api/oauth2/authorize`);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('scope')).toBe('offline_access api:admin-read');

    // The user signs in (login_hint stands in for the click) and the browser lands on the redirect URI.
    authorize.searchParams.set('login_hint', 'alice');
    const redirect = await fetch(authorize, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    browser.url = new URL(redirect.headers.get('location')!);
    expect(browser.url.pathname).toBe('/auth/callback');

    // Second call: the library exchanges the code with its verifier.
    const token = await getToken();
    expect(token).toMatch(/^platform_/);
    expect(await (await getCurrent(token)).json()).toMatchObject({ username: 'alice', email: 'alice@example.com' });
    expect(browser.url.href).toBe(`${APP}/home`); // sent back where it started

    await getToken.signOut();
    expect((await getCurrent(token)).status).toBe(401);
  });
});
