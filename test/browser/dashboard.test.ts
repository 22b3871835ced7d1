// The dashboard in a real browser (Debian's Chromium through playwright-core): every panel renders from a
// seeded emulator, escapes what it shows, updates live from the event stream when the state changes through
// the API, and its buttons act (revoke a token, cancel a job, deactivate a user). Screenshots in light and
// dark go to test-results/ for a look by eye.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { startEmulator, type Emulator } from '../../src/index.js';
import { artefactDir, describeInBrowser, launch, removeProfiles } from './chromium.js';

const MUX = '/analytics-backend-multiplexer/api/module-group-multiplexer';
const RUNTIMES = '/_emulate/platform/compute-modules/runtimes';
const APP_RID = 'ri.foundry.main.deployed-app.adder';

let emulator: Emulator;
let context: BrowserContext;
let page: Page;
let aliceToken: string;
const problems: string[] = [];

async function api(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${emulator.url}${path}`, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function setUp(): Promise<void> {
  emulator = await startEmulator({
    seed: {
      platform: {
        users: [
          { username: 'alice', display_name: 'Alice Anderson', email: 'alice@example.com' },
          { username: 'mallory', display_name: '<img src=x onerror="document.title=\'pwned\'">', email: 'm@example.com' },
          { username: 'bot', principal_type: 'service', oauth_client_id: 'pipeline' },
        ],
        oauth_clients: [
          { client_id: 'web', name: 'Web App', redirect_uris: ['http://localhost:3000/callback'] },
          { client_id: 'pipeline', client_secret: 'pipeline-secret-never-shown', grant_types: ['client_credentials'], allowed_scopes: ['api:admin-read'] },
        ],
        connections: [
          {
            rid: 'ri.conn.weather',
            display_name: 'Weather API',
            parent_folder_rid: 'ri.folder.1',
            domains: [{ host: 'api.weather.test', port: 443, scheme: 'HTTPS' }],
          },
        ],
        groups: [{ name: 'analysts', members: ['alice'] }],
        spaces: [{ rid: 'ri.compass.main.folder.space-main', name: 'Main' }],
        projects: [{ rid: 'ri.compass.main.folder.proj', name: 'Demo', space: 'ri.compass.main.folder.space-main' }],
        folders: [{ rid: 'ri.compass.main.folder.reports', name: 'reports', parent: 'ri.compass.main.folder.proj' }],
        ontologies: [{ api_name: 'demo', display_name: 'Demo Ontology', queries: [{ api_name: 'greet', result: { value: 'hi' } }] }],
        compute_modules: {
          poll_timeout_ms: 200,
          runtimes: [{ runtime_id: 'adder-runtime', module_auth_token: 'module-token-never-shown' }],
          deployed_apps: [{ deployed_app_rid: APP_RID, runtime_id: 'adder-runtime', display_name: 'Adder' }],
        },
      },
    },
  });
  // State to show: secrets on the connection, a token for alice, one finished job with a binary result, one queued.
  await emulator.server.store.connections.mergeSecrets('ri.conn.weather', { apiKey: 'weather-secret-never-shown' });
  aliceToken = (await (await api('POST', '/_emulate/platform/tokens', { username: 'alice', scopes: ['api:admin-read'] })).json()).access_token;
  const admin = (await (await api('POST', '/_emulate/platform/tokens', { username: 'admin' })).json()).access_token;
  const submit = (queryType: string, query: unknown) =>
    api(
      'POST',
      `${MUX}/deployed-apps/jobs`,
      { deployedAppRid: APP_RID, deployedAppBranch: 'master', queryType, query },
      { authorization: `Bearer ${admin}` },
    ).then((r) => r.json());
  const done = await submit('add', { a: 2, b: 3 });
  const polled = await api('GET', `${RUNTIMES}/adder-runtime/job`, undefined, { 'module-auth-token': 'module-token-never-shown' });
  expect((await polled.json()).computeModuleJobV1.jobId).toBe(done.id);
  await fetch(`${emulator.url}${RUNTIMES}/adder-runtime/results/${done.id}`, {
    method: 'POST',
    headers: { 'module-auth-token': 'module-token-never-shown', 'content-type': 'application/octet-stream' },
    body: new Uint8Array([0xde, 0xad, 0xbe, 0xef]),
  });
  await submit('slow', { n: 1 });
  // A refusal for the journal: a token asked with a wrong client secret.
  await fetch(`${emulator.url}/idp/api/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials&client_id=pipeline&client_secret=wrong',
  });

  context = await launch({ viewport: { width: 1280, height: 1400 } });
  page = await context.newPage();
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
}

async function tearDown(): Promise<void> {
  await context?.close();
  await emulator?.close();
  await removeProfiles();
}

const panel = (id: string) => page.locator(`#${id}-body`);

describeInBrowser('dashboard in a real browser', () => {
  beforeAll(setUp);
  afterAll(tearDown);

  it('GET / leads a browser to the dashboard, where every panel renders', async () => {
    await page.goto(`${emulator.url}/`);
    expect(new URL(page.url()).pathname).toBe('/_emulate/ui');
    await expect(page.title()).resolves.toBe('Dashboard · Platform Emulator');
    await page.waitForSelector('body[data-live="live"]');
    await page.waitForSelector('#runtimes-body table');

    await expect(panel('users').textContent()).resolves.toMatch(/Alice Anderson.*alice@example\.com.*active/);
    // Markup in data is shown as text, never run.
    expect(await page.getByText('<img src=x onerror="document.title=\'pwned\'">').isVisible()).toBe(true);
    expect(await page.locator('#users-body img').count()).toBe(0);
    await expect(panel('tokens').textContent()).resolves.toMatch(/alice.*control route.*api:admin-read.*60 min/);
    await expect(panel('clients').textContent()).resolves.toMatch(/Web App.*public.*http:\/\/localhost:3000\/callback/);
    await expect(panel('clients').textContent()).resolves.toMatch(/pipeline.*confidential/);
    await expect(panel('connections').textContent()).resolves.toMatch(/Weather API.*https:\/\/api\.weather\.test:443.*apiKey/);
    await expect(panel('ontologies').textContent()).resolves.toMatch(/Demo Ontology.*demo.*greet/);
    const runtimes = await panel('runtimes').textContent();
    expect(runtimes).toMatch(/adder-runtime/);
    expect(runtimes).toMatch(/Adder@master/);
    expect(runtimes).toMatch(/succeeded.*4 bytes, application\/octet-stream, as hex.*de ad be ef/);
    expect(runtimes).toMatch(/slow.*queued/);
    const journal = await panel('journal').textContent();
    expect(journal).toMatch(/\/idp\/api\/oauth2\/token/);
    expect(journal).toMatch(/invalid_client/);
    await expect(page.locator('#clock-now').textContent()).resolves.not.toBe('…');

    // Never a secret anywhere in the page.
    const html = await page.content();
    for (const secret of ['pipeline-secret-never-shown', 'module-token-never-shown', 'weather-secret-never-shown', aliceToken])
      expect(html).not.toContain(secret);
    expect(problems).toEqual([]);

    const dir = await artefactDir();
    await page.screenshot({ path: `${dir}/dashboard-light.png`, fullPage: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: `${dir}/dashboard-dark.png`, fullPage: true });
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('draws the views services declare, each searchable', async () => {
    const views = (await (await api('GET', '/_emulate/ui/views')).json()).views as Array<{ service: string; title: string }>;
    expect(views.map((v) => `${v.service}:${v.title}`)).toEqual(expect.arrayContaining(['admin:People', 'filesystem:Files']));
    const people = page.locator('section[data-service="admin"]');
    await expect(people.locator('tbody tr', { hasText: 'alice' }).first().textContent()).resolves.toContain('analysts');
    await people.locator('input[type="search"]').fill('mall');
    await page.waitForFunction(() => {
      const rows = Array.from(document.querySelectorAll('section[data-service="admin"] tbody tr'));
      return rows.length === 1 && rows[0]!.textContent!.includes('mallory');
    });
    await expect(page.locator('section[data-service="filesystem"] tbody').textContent()).resolves.toContain('/Main/Demo/reports');
  });

  it('shows a change made through the API, live', async () => {
    await page.waitForSelector('body[data-live="live"]');
    const row = page.locator('#users-body tr', { hasText: 'alice@example.com' });
    await expect(row.textContent()).resolves.toMatch(/active/);
    const started = Date.now();
    expect((await api('POST', '/_emulate/platform/users/alice/deactivate')).status).toBe(200);
    await row.locator('text=deactivated').waitFor({ timeout: 5000 });
    const latency = Date.now() - started;
    console.log(`dashboard showed the deactivation ${latency} ms after the API answered`);
    await page.locator('#journal-body', { hasText: '/_emulate/platform/users/alice/deactivate' }).waitFor({ timeout: 5000 });
    // And back, from the page's own button, by keyboard.
    const button = page.getByRole('button', { name: 'Activate alice' });
    await button.focus();
    await page.keyboard.press('Enter');
    await row.locator('text=deactivated').waitFor({ state: 'detached', timeout: 5000 });
    const me = await api('GET', '/api/v2/admin/users/getCurrent', undefined, { authorization: `Bearer ${aliceToken}` });
    expect(me.status).toBe(200);
  });

  it('revokes a token from the page', async () => {
    await page.getByRole('button', { name: /^Revoke token [0-9a-f]{16} of alice$/ }).click();
    await page.locator('#notice', { hasText: /Revoked token/ }).waitFor({ timeout: 5000 });
    await page.waitForFunction(() => !/alice/.test(document.getElementById('tokens-body')!.textContent ?? ''), undefined, { timeout: 5000 });
    const me = await api('GET', '/api/v2/admin/users/getCurrent', undefined, { authorization: `Bearer ${aliceToken}` });
    expect(me.status).toBe(401);
    await expect(panel('tokens').textContent()).resolves.not.toMatch(/alice/);
  });

  it('cancels a queued job from the page', async () => {
    await page.getByRole('button', { name: /^Cancel job / }).click();
    await page.locator('#runtimes-body tr', { hasText: 'slow' }).locator('text=canceled').waitFor({ timeout: 5000 });
    const listing = await (await api('GET', RUNTIMES)).json();
    expect(listing.runtimes[0].jobs.find((j: { queryType: string }) => j.queryType === 'slow').state).toBe('canceled');
  });

  it('shows focus when moving by keyboard, and filters the journal to refusals', async () => {
    await page.locator('body').focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    const outline = await page.evaluate(() => {
      const active = document.activeElement as HTMLElement;
      return { tag: active.tagName, style: getComputedStyle(active).outlineStyle, width: getComputedStyle(active).outlineWidth };
    });
    expect(outline.style).not.toBe('none');
    expect(outline.width).not.toBe('0px');
    await page.screenshot({ path: `${await artefactDir()}/dashboard-focus.png` });

    await page.getByLabel('Refusals only').check();
    const rows = await page.locator('#journal-body tbody tr').evaluateAll((trs) => trs.map((tr) => tr.className));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((c) => c === 'refusal')).toBe(true);
    await expect(panel('journal').textContent()).resolves.toMatch(/invalid_client: /);
    await page.getByLabel('Refusals only').uncheck();
  });

  it('resets to the seed from the page', async () => {
    await page.getByRole('button', { name: 'Reset to seed' }).click();
    await page.locator('#runtimes-body', { hasText: 'No jobs yet.' }).waitFor({ timeout: 5000 });
    await expect(panel('users').textContent()).resolves.toMatch(/Alice Anderson/);
    expect(problems).toEqual([]);
  });
});
