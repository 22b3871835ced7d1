// The dashboard's Objects and Object files views in a real browser (docs/ontology-dashboard.md): the objects of
// every ontology appear 100 a page with Next and Previous, the search narrows them, an edit through the control
// route shows without a reload, a change of another kind fetches no objects, and a file row links the bytes.
// Needs Chromium (test/browser/chromium.ts).
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { startEmulator, type Emulator } from '../../src/index.js';
import { PDF, writeViewsSeed } from '../ontologies/views-seed.js';
import { artefactDir, describeInBrowser, launch, removeProfiles } from './chromium.js';

let emulator: Emulator;
let context: BrowserContext;
let page: Page;
let objects: Locator;
let files: Locator;
const problems: string[] = [];
/** The paths of the list requests the page made, in order. */
const listed: string[] = [];

const rows = (view: Locator) => view.locator('tbody tr');
/** Waits until the view's rows are exactly `count` and the first holds `first`. */
async function waitForRows(view: 'Objects' | 'Object files', count: number, first: string): Promise<void> {
  await page.waitForFunction(
    ({ title, count, first }) => {
      const section = Array.from(document.querySelectorAll('section[data-service="ontologies"]')).find((s) =>
        s.querySelector('h2')!.textContent!.startsWith(`${title} `),
      );
      const trs = section ? Array.from(section.querySelectorAll('tbody tr')) : [];
      return trs.length === count && trs[0]!.textContent!.includes(first);
    },
    { title: view, count, first },
    { timeout: 5000 },
  );
}

describeInBrowser('the Objects view', () => {
  beforeAll(async () => {
    emulator = await startEmulator({ config: writeViewsSeed() });
    context = await launch({ viewport: { width: 1400, height: 1200 } });
    page = await context.newPage();
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (path.startsWith('/_emulate/platform/ontologies/')) listed.push(path);
    });
    await page.goto(`${emulator.url}/_emulate/ui`);
    await page.waitForSelector('body[data-live="live"]');
    const section = (title: RegExp) => page.locator('section[data-service="ontologies"]', { has: page.locator('h2', { hasText: title }) });
    objects = section(/^Objects /);
    files = section(/^Object files /);
  }, 60_000);
  afterAll(async () => {
    await context?.close();
    await emulator?.close();
    await removeProfiles();
  });

  it('shows the objects 100 a page, with Next and Previous across ontologies', async () => {
    await waitForRows('Objects', 100, 'p0001');
    const first = await rows(objects).first().textContent();
    expect(first).toContain('Widget 1');
    expect(first).toContain('manual.pdf');
    await expect(objects.locator('h2 .count').textContent()).resolves.toBe('100 on page 1');
    await objects.getByRole('button', { name: 'Next page of Objects' }).click();
    await waitForRows('Objects', 100, 'p0101');
    // An object without files shows an empty Files cell.
    await expect(rows(objects).first().locator('td').last().textContent()).resolves.toBe('');
    await objects.getByRole('button', { name: 'Next page of Objects' }).click();
    await waitForRows('Objects', 53, 'p0201');
    await expect(rows(objects).last().textContent()).resolves.toContain('Person 3');
    await expect(objects.getByRole('button', { name: 'Next page of Objects' }).isDisabled()).resolves.toBe(true);
    await objects.getByRole('button', { name: 'Previous page of Objects' }).click();
    await waitForRows('Objects', 100, 'p0101');
  });

  it('narrows by search, and shows an edit made through the control route without a reload', async () => {
    await objects.locator('input[type="search"]').fill('widget 12');
    await waitForRows('Objects', 11, 'p0012');
    await expect(objects.locator('.pager').isHidden()).resolves.toBe(true);
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));

    const before = listed.length;
    const started = Date.now();
    const put = await fetch(`${emulator.url}/_emulate/platform/ontologies/shop/objects/Product/p0125`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Widget 125 edited', price: 1 }),
    });
    expect(put.status).toBe(200);
    await objects.locator('tbody tr', { hasText: 'Widget 125 edited' }).waitFor({ timeout: 5000 });
    console.log(`the Objects view showed the edit ${Date.now() - started} ms after the control route answered`);
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
    // The change read the page shown once per ontology view (Objects, Object files, Subscriptions) and no more.
    const fetched = listed.slice(before);
    expect(fetched.filter((p) => p === '/_emulate/platform/ontologies/objects')).toHaveLength(1);
  });

  it('a change of another kind fetches no objects', async () => {
    const before = listed.length;
    expect((await fetch(`${emulator.url}/_emulate/platform/users/dev/deactivate`, { method: 'POST' })).status).toBe(200);
    await page.locator('#users-body', { hasText: 'deactivated' }).waitFor({ timeout: 5000 });
    await page.waitForTimeout(300);
    expect(listed.slice(before).filter((p) => p.startsWith('/_emulate/platform/ontologies/'))).toEqual([]);
  });

  it('lists the files objects hold, each a working download link', async () => {
    await waitForRows('Object files', 2, 'manual.pdf');
    const link = files.getByRole('link', { name: /manual\.pdf/ });
    await expect(link.textContent()).resolves.toBe(`manual.pdf (${PDF.length} B, application/pdf)`);
    const href = await link.getAttribute('href');
    expect(href).toMatch(/^\/_emulate\/platform\/ontologies\/files\/ri\.attachments\.main\.attachment\./);
    const got = await page.evaluate(async (url) => {
      const res = await fetch(url);
      return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
    }, href!);
    expect(got).toEqual({ status: 200, type: 'application/pdf', text: PDF.toString('latin1') });
    await files.locator('input[type="search"]').fill('image/png');
    await waitForRows('Object files', 1, 'photo.png');
    expect(problems).toEqual([]);
    await page.screenshot({ path: `${await artefactDir()}/ontology-objects.png`, fullPage: true });
  });
});
