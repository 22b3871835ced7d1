// A real browser (Debian's chromium through playwright-core, pinned) signs in on the sign-in page: it sees
// the seeded users, filters them, clicks one, lands on a redirect target served here with code and state,
// and the test exchanges the code (PKCE) and calls getCurrent with the token.
// Without Chromium the suite is skipped with its reason (failed under CI=true): test/browser/chromium.ts.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { startEmulator, type Emulator } from '../../src/index.js';
import { s256 } from '../oauth/flow.js';
import { artefactDir, describeInBrowser, launch as launchChromium, removeProfiles } from '../browser/chromium.js';

let emulator: Emulator;
let target: Server;
let targetUrl: string;

beforeAll(async () => {
  emulator = await startEmulator({
    seed: `
platform:
  users:
    - { username: alice, display_name: Alice Anderson, email: alice@example.com, given_name: Alice }
    - { username: bob, display_name: Bob Brown, email: bob@example.com }
    - { username: carol, display_name: "Carol <Admin>", email: carol@example.com }
    - { username: dormant, display_name: Dormant Dan, active: false }
  oauth_clients:
    - { client_id: notebook, name: Analysis Notebook, redirect_uris: ["http://127.0.0.1/callback"] }
`,
  });
  // The app's redirect target: a page that says it got a code (a loopback URI matches on any port).
  target = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>App</title><p>Signed in</p>'));
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/callback`;
});

afterAll(async () => {
  await emulator?.close();
  await new Promise((resolve) => target?.close(resolve));
  await removeProfiles();
});

const launch = (javaScriptEnabled = true): Promise<BrowserContext> => launchChromium({ javaScriptEnabled });

function authorizeUrl(challenge: string, state: string): string {
  const query = new URLSearchParams({
    client_id: 'notebook',
    response_type: 'code',
    redirect_uri: targetUrl,
    scope: 'api:admin-read offline_access',
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  return `${emulator.url}/idp/api/oauth2/authorize?${query}`;
}

async function exchange(code: string, verifier: string): Promise<{ access_token: string; refresh_token?: string }> {
  const res = await fetch(`${emulator.url}/idp/api/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, client_id: 'notebook', redirect_uri: targetUrl, code_verifier: verifier }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { access_token: string; refresh_token?: string };
}

describeInBrowser('sign-in page in a real browser', () => {
  it('lists the users, filters them, and signs in with a click', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = s256(verifier);
    const state = '<b>state</b> & "quotes"';
    const context = await launch();
    try {
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
      page.on('pageerror', (e) => problems.push(e.message));

      await page.goto(authorizeUrl(challenge, state));
      await expect(page.title()).resolves.toBe('Sign in · Platform Emulator');
      const buttons = page.locator('button[name="username"]');
      expect(await buttons.evaluateAll((els) => els.map((e) => (e as HTMLButtonElement).value))).toEqual(['admin', 'alice', 'bob', 'carol']);
      expect(await page.getByRole('button', { name: /Carol <Admin>/ }).isVisible()).toBe(true); // escaped, shown as text
      expect(await page.getByText('Analysis Notebook').isVisible()).toBe(true);

      await page.screenshot({ path: `${await artefactDir()}/signin.png`, fullPage: true });

      // The filter box (the page's only script, allowed by its CSP nonce).
      const filter = page.getByRole('searchbox', { name: 'Filter accounts' });
      await filter.fill('bob@');
      expect(await buttons.evaluateAll((els) => els.filter((e) => !e.closest('li')!.hidden).map((e) => (e as HTMLButtonElement).value))).toEqual(['bob']);
      await filter.fill('nobody-at-all');
      expect(await page.getByText('No account matches.').isVisible()).toBe(true);
      await filter.fill('');

      await page.getByRole('button', { name: /Alice Anderson/ }).click();
      await page.waitForURL((url) => url.pathname === '/callback');
      expect(await page.textContent('p')).toBe('Signed in');
      const landed = new URL(page.url());
      expect(landed.searchParams.get('state')).toBe(state);
      const code = landed.searchParams.get('code')!;
      expect(problems).toEqual([]);

      const tokens = await exchange(code, verifier);
      expect(tokens.refresh_token).toMatch(/^platform_refresh_/);
      const me = await fetch(`${emulator.url}/api/v2/admin/users/getCurrent`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
      expect(await me.json()).toMatchObject({ username: 'alice', givenName: 'Alice', email: 'alice@example.com' });
    } finally {
      await context.close();
    }
  });

  it('works without JavaScript', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = s256(verifier);
    const context = await launch(false);
    try {
      const page = await context.newPage();
      await page.goto(authorizeUrl(challenge, 'no-js'));
      expect(await page.locator('#filter-box').isVisible()).toBe(false); // the filter needs the script
      // Keyboard use: Tab reaches the first account, and its focus is visible (an outline, not only a tint).
      await page.keyboard.press('Tab');
      const focus = await page.evaluate(() => {
        const active = document.activeElement as HTMLButtonElement;
        return { value: active.value, outline: getComputedStyle(active).outlineStyle, width: getComputedStyle(active).outlineWidth };
      });
      expect(focus).toEqual({ value: 'admin', outline: 'solid', width: '3px' });
      await page.screenshot({ path: `${await artefactDir()}/signin-focus.png` });
      await page.getByRole('button', { name: /Bob Brown/ }).click();
      await page.waitForURL((url) => url.pathname === '/callback');
      const landed = new URL(page.url());
      expect(landed.searchParams.get('state')).toBe('no-js');
      const tokens = await exchange(landed.searchParams.get('code')!, verifier);
      const me = await fetch(`${emulator.url}/idp/api/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
      expect(await me.json()).toMatchObject({ username: 'bob', displayName: 'Bob Brown' });
    } finally {
      await context.close();
    }
  });
});
