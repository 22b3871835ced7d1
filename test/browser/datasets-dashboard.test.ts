// The datasets views of the dashboard in a real browser (docs/datasets.md, "Dashboard"): a seeded dataset with
// its schema and the first rows of its table, its branches, transactions and files; an upload through the API
// shows up without a reload, and the search narrows the views.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { startEmulator, type Emulator } from '../../src/index.js';
import { describeInBrowser, launch, removeProfiles } from './chromium.js';

const RID = 'ri.foundry.main.dataset.readings';
let emulator: Emulator;
let context: BrowserContext;
let page: Page;
const problems: string[] = [];

const view = (title: string) => page.locator('section[data-service="datasets"]', { has: page.locator('h2', { hasText: new RegExp(`^${title} \\d`) }) });

describeInBrowser('the datasets views of the dashboard', () => {
  beforeAll(async () => {
    emulator = await startEmulator({
      seed: {
        platform: {
          users: [{ username: 'alice' }],
          datasets: [
            {
              rid: RID,
              name: 'readings',
              schema: { sensor: 'string', value: 'double' },
              branches: ['master', 'dev'],
              files: [{ path: 'part-0.csv', content: 'sensor,value\na,1.5\nb,<b>2</b>\n' }],
            },
            { name: 'other', files: [{ path: 'notes.txt', content: 'hello' }] },
            { name: 'notes', schema: { note: 'string', tags: 'array<integer>' }, files: [{ path: 'n.csv', content: 'note,tags\n"two\nlines","[1]"\n' }] },
          ],
        },
      },
    });
    context = await launch({ viewport: { width: 1280, height: 1400 } });
    page = await context.newPage();
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
  });
  afterAll(async () => {
    await context?.close();
    await emulator?.close();
    await removeProfiles();
  });

  it('shows datasets with their first rows, branches, transactions and files, live and searchable', async () => {
    await page.goto(`${emulator.url}/_emulate/ui`);
    await view('Datasets').locator('tbody tr').first().waitFor({ timeout: 10_000 });
    const datasets = view('Datasets');
    const readings = await datasets.locator('tbody tr', { hasText: 'readings' }).textContent();
    expect(readings).toContain(RID);
    expect(readings).toContain('sensor: STRING');
    // A bad value is named, not drawn as markup: the second row does not fit the schema's double.
    expect(readings).toMatch(/cannot read: .*part-0\.csv line 3, column "value"/);
    expect(await datasets.locator('tbody b').count()).toBe(0);
    expect(await datasets.locator('tbody tr', { hasText: 'other' }).textContent()).toContain('no schema');
    // An array column says its item type; a quoted line break stays inside its row.
    const notes = await datasets.locator('tbody tr', { hasText: 'notes' }).textContent();
    expect(notes).toContain('tags: ARRAY<INTEGER>');
    expect(notes).toContain('"two↵lines",[1]');

    await expect(view('Dataset branches').locator('tbody').textContent()).resolves.toMatch(/readings.*dev/);
    await expect(view('Dataset transactions').locator('tbody tr', { hasText: 'readings' }).first().textContent()).resolves.toMatch(/SNAPSHOT.*COMMITTED/);
    await expect(view('Dataset files').locator('tbody').textContent()).resolves.toMatch(/readings.*master.*part-0\.csv30text\/csv/);

    // An upload through the API (a new committed transaction) appears without a reload.
    const token = await emulator.mintToken('alice', ['api:datasets-write']);
    const up = await fetch(`${emulator.url}/api/v2/datasets/${RID}/files/part-1.csv/upload?transactionType=APPEND`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
      body: 'sensor,value\nc,3\n',
    });
    expect(up.status).toBe(200);
    await view('Dataset files').locator('tbody tr', { hasText: 'part-1.csv' }).waitFor({ timeout: 5000 });
    await view('Dataset transactions').locator('tbody tr', { hasText: 'APPEND' }).waitFor({ timeout: 5000 });

    await datasets.locator('input[type="search"]').fill('other');
    await datasets.locator('tbody tr', { hasText: 'readings' }).waitFor({ state: 'detached', timeout: 5000 });
    expect(await datasets.locator('tbody tr').count()).toBe(1);
    expect(problems).toEqual([]);
  });
});
