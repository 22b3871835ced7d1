// CORS proof in a real browser (docs/contracts.md §11): a page served from another loopback origin runs the platform's
// OAuth public client (@osdk/oauth, PKCE, ctxPath 'idp', bundled with esbuild) through the sign-in page, calls
// Users.getCurrent with the platform SDK across origins, and refreshes the token. A page from an origin that
// is not in `cors_origins` cannot read an answer, and the answer it gets carries no CORS headers.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { build } from 'esbuild';
import type { BrowserContext } from 'playwright-core';
import { startEmulator, type Emulator } from '../../src/index.js';
import { artefactDir, describeInBrowser, launch, removeProfiles } from './chromium.js';

let emulator: Emulator;
let app: Server;
let appPort: number;
let context: BrowserContext;
let script: string;

const escapeScript = (json: string) => json.replace(/</g, '\\u003c');

function pageHtml(config: object): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>OSDK app</title>
<link rel="icon" href="data:,"><script type="application/json" id="config">${escapeScript(JSON.stringify(config))}</script></head>
<body><h1>My app</h1><pre id="out">working…</pre><script type="module" src="/app.js"></script></body></html>`;
}

const EVIL_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Other origin</title><link rel="icon" href="data:,"></head><body><pre id="out">working…</pre></body></html>`;

async function setUp(): Promise<void> {
  const bundled = await build({
    entryPoints: [fileURLToPath(new URL('./fixtures/osdk-app.ts', import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'chrome120',
    write: false,
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"development"' },
  });
  script = bundled.outputFiles[0]!.text;

  // The app's own server: 127.0.0.1 is its origin (allowed); the same server reached as `localhost` is another
  // origin, left out of cors_origins on purpose.
  app = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/app.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    if (path === '/evil') return void res.writeHead(200, { 'content-type': 'text/html' }).end(EVIL_PAGE);
    if (path === '/favicon.ico') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end(pageHtml({ emulator: emulator.url, redirect: `http://127.0.0.1:${appPort}/auth/callback` }));
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  appPort = (app.address() as AddressInfo).port;
  emulator = await startEmulator({
    seed: {
      platform: {
        cors_origins: ['http://127.0.0.1:*'],
        users: [{ username: 'alice', display_name: 'Alice Anderson', email: 'alice@example.com' }],
        oauth_clients: [{ client_id: 'spa', name: 'My SPA', redirect_uris: [`http://127.0.0.1:${appPort}/auth/callback`] }],
      },
    },
  });
  context = await launch();
}

async function tearDown(): Promise<void> {
  await context?.close();
  await emulator?.close();
  await new Promise((resolve) => app?.close(resolve));
  await removeProfiles();
}

describeInBrowser('a browser app on another origin', () => {
  beforeAll(setUp);
  afterAll(tearDown);

  it('signs in with @osdk/oauth (PKCE), calls Users.getCurrent across origins, and refreshes', async () => {
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`http://127.0.0.1:${appPort}/home`);
    // The library sends the browser to the emulator's sign-in page.
    await page.waitForURL((url) => url.pathname === '/idp/api/oauth2/authorize');
    expect(new URL(page.url()).searchParams.get('code_challenge_method')).toBe('S256');
    await page.getByRole('button', { name: /Alice Anderson/ }).click();
    // Back on the app's redirect URI, the library exchanges the code (a cross-origin POST to the token route).
    await page.waitForFunction(() => document.getElementById('out')?.textContent !== 'working…', undefined, { timeout: 15_000 });
    const outcome = JSON.parse((await page.textContent('#out'))!);
    expect(outcome).toEqual({ ok: true, username: 'alice', email: 'alice@example.com', afterRefresh: 'alice', tokenChanged: true, hasRefreshToken: true });
    expect(new URL(page.url()).pathname).toBe('/home'); // the library put the app back where it started
    expect(problems).toEqual([]);
    await page.screenshot({ path: `${await artefactDir()}/cors-osdk-app.png` });

    // The journal shows the cross-origin calls as any other.
    const journal = (await (await fetch(`${emulator.url}/_emulate/platform/journal?path=/idp/api/oauth2/token`)).json()).entries;
    expect(journal.map((e: { status: number }) => e.status)).toEqual([200, 200]);
  });

  it('gives a page from an origin outside cors_origins nothing to read', async () => {
    const page = await context.newPage();
    await page.goto(`http://localhost:${appPort}/evil`);
    const failed: string[] = [];
    page.on('requestfailed', (r) => failed.push(`${r.url()} ${r.failure()?.errorText ?? ''}`));
    const result = await page.evaluate(async (url) => {
      try {
        const res = await fetch(url);
        return `read ${res.status}`;
      } catch (err) {
        return `refused: ${(err as Error).name}`;
      }
    }, `${emulator.url}/api/v2/admin/users/getCurrent`);
    expect(result).toBe('refused: TypeError');
    expect(failed.join('\n')).toMatch(/getCurrent/);
    // What the browser was answered: the same request with that page's Origin carries no CORS header at all.
    const answer = await fetch(`${emulator.url}/api/v2/admin/users/getCurrent`, { headers: { origin: `http://localhost:${appPort}` } });
    expect(answer.status).toBe(401);
    for (const header of [
      'access-control-allow-origin',
      'access-control-allow-methods',
      'access-control-allow-headers',
      'access-control-expose-headers',
      'access-control-allow-credentials',
    ]) {
      expect(answer.headers.get(header), header).toBeNull();
    }

    // And an allowed origin reads the same refusal.
    const allowed = await context.newPage();
    await allowed.goto(`http://127.0.0.1:${appPort}/evil`);
    expect(await allowed.evaluate(async (url) => (await fetch(url)).status, `${emulator.url}/api/v2/admin/users/getCurrent`)).toBe(401);
  });
});
