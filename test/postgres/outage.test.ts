// The database goes away and comes back (docs/contracts.md §12): 503 in each family's envelope while it is gone,
// never a hang or a 500 with a driver message; recovery by itself, with nothing lost; and a start-up that
// cannot reach it fails with a clear message.
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/index.js';
import { freshSchemaUrl } from '../helpers/store.js';
import { collect, spawnCli } from '../helpers/cli.js';
import { PgRelay } from './proxy.js';
import { MUX, RUNTIME, RUNTIMES, SEED, baseUrl, mint, poll, postResult, submit } from './helpers.js';

let relay: PgRelay | undefined;
let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close().catch(() => undefined);
  await relay?.down();
  emulator = undefined;
  relay = undefined;
});

async function behindRelay(): Promise<{ emulator: Emulator; relay: PgRelay }> {
  const target = new URL(baseUrl());
  relay = new PgRelay(target.hostname, Number(target.port || 5432));
  await relay.up();
  emulator = await startEmulator({ seed: SEED, store: relay.urlFor(freshSchemaUrl(baseUrl())) });
  return { emulator, relay };
}

describe('the database goes away and comes back', () => {
  it("answers 503 in every family's envelope while it is gone, quickly, then recovers with its state", async () => {
    const { emulator: e, relay: r } = await behindRelay();
    const token = await mint(e, 'admin', ['api:admin-read']);
    const jobId = await submit(e, token);
    await r.down();

    const started = Date.now();
    const platform = await fetch(`${e.url}/api/v2/admin/users/getCurrent`, { headers: { authorization: `Bearer ${token}` } });
    expect(platform.status).toBe(503);
    const pBody = (await platform.json()) as Record<string, unknown>;
    expect(Object.keys(pBody).sort()).toEqual(['errorCode', 'errorDescription', 'errorInstanceId', 'errorName', 'parameters']);
    expect(pBody).toMatchObject({ errorCode: 'INTERNAL', errorName: 'ServiceUnavailable' });
    expect(platform.headers.get('retry-after')).toBe('1');

    const oauth = await fetch(`${e.url}/idp/api/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&client_id=web&client_secret=s3cret',
    });
    expect(oauth.status).toBe(503);
    expect(await oauth.json()).toEqual({ error: 'temporarily_unavailable', error_description: expect.any(String) });

    const job = await fetch(`${e.url}${RUNTIMES}/${RUNTIME}/job`, { headers: { 'module-auth-token': 'x'.repeat(20) } });
    expect(job.status).toBe(503);
    expect(((await job.json()) as { error: string }).error).toBe('temporarily_unavailable');

    const page = await fetch(`${e.url}/idp/api/oauth2/authorize?client_id=web&response_type=code`);
    expect(page.status).toBe(503);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).not.toMatch(/ECONNREFUSED|pg|terminated|timeout/i);
    // Bounded: the connect timeout (2 s) at worst, never the client's patience.
    expect(Date.now() - started).toBeLessThan(15_000);

    await r.up();
    await expect
      .poll(async () => (await fetch(`${e.url}/api/v2/admin/users/getCurrent`, { headers: { authorization: `Bearer ${token}` } })).status, { timeout: 10_000 })
      .toBe(200);
    // Nothing was lost: the job queued before the outage is handed out and answered.
    expect(await poll(e)).toBe(jobId);
    expect(await postResult(e, jobId, 'ok')).toBe(200);
    const res = await fetch(`${e.url}${MUX}/jobs/result/v2`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ id: jobId }),
    });
    expect(await res.text()).toBe('ok');
  });

  it('keeps answering under load while the database restarts: 503s while down, 200s after, nothing else', async () => {
    const { emulator: e, relay: r } = await behindRelay();
    const token = await mint(e, 'admin', ['api:admin-read']);
    const seen = new Map<number, number>();
    let stop = false;
    const load = async () => {
      while (!stop) {
        const res = await fetch(`${e.url}/api/v2/admin/users/getCurrent`, { headers: { authorization: `Bearer ${token}` } });
        await res.arrayBuffer();
        seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
      }
    };
    const workers = Array.from({ length: 4 }, load);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await r.down();
    await new Promise((resolve) => setTimeout(resolve, 700));
    await r.up();
    await expect
      .poll(async () => (await fetch(`${e.url}/api/v2/admin/users/getCurrent`, { headers: { authorization: `Bearer ${token}` } })).status, { timeout: 10_000 })
      .toBe(200);
    seen.clear();
    await new Promise((resolve) => setTimeout(resolve, 300));
    stop = true;
    await Promise.all(workers);
    expect([...seen.keys()]).toEqual([200]); // fully recovered
  });

  it('counts only 200 and 503 across the outage', async () => {
    const { emulator: e, relay: r } = await behindRelay();
    const token = await mint(e, 'admin', ['api:admin-read']);
    const statuses = new Set<number>();
    const hit = async () => {
      const res = await fetch(`${e.url}/api/v2/admin/users/getCurrent`, { headers: { authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      statuses.add(res.status);
    };
    await Promise.all(Array.from({ length: 20 }, hit));
    await r.down();
    await Promise.all(Array.from({ length: 20 }, hit));
    await r.up();
    await expect
      .poll(async () => (await fetch(`${e.url}/api/v2/admin/users/getCurrent`, { headers: { authorization: `Bearer ${token}` } })).status, { timeout: 10_000 })
      .toBe(200);
    expect([...statuses].sort()).toEqual([200, 503]);
  });

  it('a start-up that cannot reach the database fails with a clear message and no password', async () => {
    const relayDown = new PgRelay('127.0.0.1', 1);
    relayDown.port = 1; // nothing listens on port 1
    const url = relayDown.urlFor('postgres://emulator:hunter2-secret@127.0.0.1:1/emulator');
    const result = await collect(spawnCli(['--port', '0', '--store', url]), 20_000);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/store: cannot reach the database at postgres:\/\/127\.0\.0\.1:1\/emulator/);
    expect(result.stderr + result.stdout).not.toContain('hunter2');
  });
});
