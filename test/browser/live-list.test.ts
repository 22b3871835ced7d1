// A live object list in a real browser (docs/live-ontology.md): a page from another loopback origin runs the typed
// client (@osdk/client, bundled with esbuild), lists the employees and subscribes; actions applied from Node, and an
// edit through the control routes, show on the page without a reload.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { build } from 'esbuild';
import type { BrowserContext, Page } from 'playwright-core';
import { createClient } from '@osdk/client';
import { startEmulator, type Emulator } from '../../src/index.js';
import { describeInBrowser, launch, removeProfiles } from './chromium.js';
import { ACME_RID, ACME_SEED } from '../ontologies/fixture.js';
import { hireEmployee, promoteEmployee } from '../clients/osdk-typed-definitions.js';
import { controlToken } from '../clients/conformance-helpers.js';

let emulator: Emulator;
let app: Server;
let context: BrowserContext;
let page: Page;
let token: string;
const problems: string[] = [];

const escapeScript = (json: string) => json.replace(/</g, '\\u003c');

async function setUp(): Promise<void> {
  const bundled = await build({
    entryPoints: [fileURLToPath(new URL('./fixtures/live-list-app.ts', import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'chrome120',
    write: false,
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"development"' },
  });
  const script = bundled.outputFiles[0]!.text;
  emulator = await startEmulator({ seed: ACME_SEED });
  token = await controlToken(emulator.url, 'dev', ['api:ontologies-read', 'api:ontologies-write']);
  const html = () =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Live list</title><link rel="icon" href="data:,">` +
    `<script type="application/json" id="config">${escapeScript(JSON.stringify({ emulator: emulator.url, ontologyRid: ACME_RID, token }))}</script></head>` +
    `<body><h1>Employees</h1><ul id="list"></ul><script type="module" src="/app.js"></script></body></html>`;
  app = createServer((req, res) => {
    if (req.url === '/app.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    res.writeHead(200, { 'content-type': 'text/html' }).end(html());
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  context = await launch();
  page = await context.newPage();
  page.on('pageerror', (e) => problems.push(e.message));
}

async function tearDown(): Promise<void> {
  await context?.close();
  await emulator?.close();
  await new Promise((resolve) => app?.close(resolve));
  await removeProfiles();
}

const row = (pk: number) => page.locator(`#list li[data-pk="${pk}"]`);

describeInBrowser('a live object list in a browser app', () => {
  beforeAll(setUp);
  afterAll(tearDown);

  it('shows actions applied elsewhere, and a control-route edit, without a reload', async () => {
    await page.goto(`http://127.0.0.1:${(app.address() as AddressInfo).port}/`);
    await page.waitForSelector('body[data-live="yes"], body[data-error]', { timeout: 15_000 }).catch(() => undefined);
    const state = await page.evaluate(() => ({ ...document.body.dataset, list: document.getElementById('list')!.textContent }));
    expect({ state, problems }).toMatchObject({ state: { live: 'yes' } });
    await expect(row(1).count()).resolves.toBe(1);
    const node = createClient(emulator.url, ACME_RID, async () => token);
    await node(hireEmployee).applyAction({ employeeId: 6, fullName: 'Fay Fox' });
    await row(6).waitFor({ timeout: 5000 });
    await node(promoteEmployee).applyAction({ employee: 6, newTitle: 'Engineer' });
    await page.waitForFunction(() => document.querySelector('#list li[data-pk="6"]')?.textContent === 'Fay Fox: Engineer', undefined, { timeout: 5000 });
    await emulator.deleteObject('acme', 'Employee', 6);
    await row(6).waitFor({ state: 'detached', timeout: 5000 });
    expect(await page.evaluate(() => document.body.dataset.error ?? null)).toBeNull();
    expect(problems).toEqual([]);
  });
});
