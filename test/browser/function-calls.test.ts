// The dashboard's Function calls view in a real browser (docs/functions.md, "Dashboard"): a module written with
// @palantir/compute-module, started through run-module, serves functions; each call (a value, a module failure,
// a bad parameter refused before any job) is a row with the function, the job it became, its duration and
// outcome, and a new call appears live. Needs Chromium (test/browser/chromium.ts).
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { createPlatformClient } from '@osdk/client';
import { Queries } from '@osdk/foundry.ontologies';
import { Queries as FunctionQueries } from '@osdk/foundry.functions';
import { seedFor, startFunctions, type LiveFunctions } from '../functions/live.js';
import { artefactDir, describeInBrowser, launch, removeProfiles } from './chromium.js';

const APP = { rid: 'ri.foundry.main.deployed-app.calls', runtime: 'calls-runtime', namespace: 'calls', timeoutMs: 4000 };
const Q = (name: string) => `com.calls.computemodules.${name}`;

let live: LiveFunctions;
let context: BrowserContext;
let page: Page;
const problems: string[] = [];

type Row = { function: string; via: string; jobId: string; jobState: string; durationMs: number; outcome: string };

describeInBrowser('the Function calls view', () => {
  beforeAll(async () => {
    live = await startFunctions({
      seed: seedFor(APP),
      runtime: APP.runtime,
      command: [process.execPath, 'test/fixtures/compute-module/functions.mjs'],
      expectSchemas: 8,
    });
    context = await launch({ viewport: { width: 1400, height: 1200 } });
    page = await context.newPage();
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
  }, 120_000);
  afterAll(async () => {
    await context?.close();
    await live?.stop();
    await removeProfiles();
  });

  const client = async () => {
    const token = await live.token();
    return createPlatformClient(live.url, async () => token);
  };
  const calls = async () => ((await (await fetch(`${live.url}/_emulate/platform/functions/calls`)).json()) as { items: Row[] }).items;

  it('lists each call with the job it became, its duration and outcome', async () => {
    const c = await client();
    expect(await Queries.execute(c, 'acme', Q('add'), { parameters: { a: 1, b: 2 } })).toEqual({ value: 3 });
    await expect(FunctionQueries.execute(c, Q('explode'), { parameters: { message: 'boom' } })).rejects.toMatchObject({ errorName: 'QueryRuntimeError' });
    await expect(Queries.execute(c, 'acme', Q('add'), { parameters: { a: 'x', b: 2 } })).rejects.toMatchObject({ errorName: 'InvalidParameterValue' });

    const rows = await calls();
    expect(rows.map((r) => [r.function, r.via, r.outcome, r.jobState])).toEqual([
      [Q('add'), 'ontologies', 'InvalidParameterValue', 'none'],
      [Q('explode'), 'functions', 'QueryRuntimeError', 'succeeded'],
      [Q('add'), 'ontologies', 'value', 'succeeded'],
    ]);
    expect(rows[0]!.jobId).toBe('');
    expect(rows[1]!.jobId).not.toBe('');
    expect(rows[2]!.durationMs).toBeGreaterThan(0);

    await page.goto(`${live.url}/_emulate/ui`);
    await page.waitForSelector('body[data-live="live"]');
    const view = page.locator('section[data-service="functions"]');
    await expect(view.locator('h2').textContent()).resolves.toContain('Function calls');
    await view.locator('tbody tr').nth(2).waitFor({ timeout: 5000 });
    const text = await view.locator('tbody').textContent();
    expect(text).toContain(rows[1]!.jobId);
    expect(text).toMatch(/QueryRuntimeError/);
    expect(text).toMatch(/InvalidParameterValue/);
    expect(text).toMatch(/\d+(\.\d)? ms/);
  });

  it('shows a new call live, and searches', async () => {
    const view = page.locator('section[data-service="functions"]');
    const c = await client();
    expect(await Queries.execute(c, 'acme', Q('slow'), { parameters: { ms: 5 } })).toEqual({ value: 'slept 5' });
    await view.locator('tbody tr', { hasText: Q('slow') }).waitFor({ timeout: 5000 });
    await view.locator('input[type="search"]').fill('explode');
    await page.waitForFunction(() => {
      const rows = Array.from(document.querySelectorAll('section[data-service="functions"] tbody tr'));
      return rows.length === 1 && rows[0]!.textContent!.includes('explode');
    });
    expect(problems).toEqual([]);
    await page.screenshot({ path: `${await artefactDir()}/function-calls.png`, fullPage: true });
  });

  it('a reset empties it', async () => {
    expect((await fetch(`${live.url}/_emulate/platform/reset`, { method: 'POST' })).status).toBe(200);
    expect(await calls()).toEqual([]);
  });
});
