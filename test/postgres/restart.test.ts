// kill -9 of an instance with jobs in flight, then a restart on the same database: every piece of state
// survives, the seed is not applied over it again, and the jobs that were handed out come back to the queue
// when the module's session is reset (docs/contracts.md §6).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { freshSchemaUrl } from '../helpers/store.js';
import { spawnCli, waitForLine } from '../helpers/cli.js';
import { MODULE_TOKEN, MUX, RUNTIME, RUNTIMES, SEED, baseUrl, mint, poll, postResult, status, submit } from './helpers.js';
import type { Emulator } from '../../src/index.js';

const children: ChildProcess[] = [];
let dir: string | undefined;
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** `lines`: what it wrote, both streams. */
async function start(config: string, store: string, more: string[] = []): Promise<{ url: string; child: ChildProcess; lines: () => string }> {
  const child = spawnCli(['--config', config, ...more, '--port', '0', '--store', store, '--log-level', 'warn']);
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const line = await waitForLine(child, /listening on/);
  return { url: /listening on (\S+)/.exec(line)![1]!, child, lines: () => out };
}

/** SEED as a config file in a fresh folder (`dir`, removed after the test), and a fresh schema for the store. */
function fresh(prefix: string): { config: string; store: string } {
  dir = mkdtempSync(join(tmpdir(), prefix));
  const config = join(dir, 'emulator.yaml');
  writeFileSync(config, stringify(SEED));
  return { config, store: freshSchemaUrl(baseUrl()) };
}

/** The shapes the helpers want: only `url` is read. */
const as = (url: string) => ({ url }) as Emulator;

describe('an instance killed with jobs in flight', () => {
  it('restarts on the same database with its tokens, users and jobs, and the handed-out jobs come back', async () => {
    const { config, store } = fresh('pe-restart-');

    const first = await start(config, store);
    const token = await mint(as(first.url), 'admin', ['api:admin-read']);
    await fetch(`${first.url}/_emulate/platform/users/alice/deactivate`, { method: 'POST' });
    const jobs = [];
    for (let i = 0; i < 5; i++) jobs.push(await submit(as(first.url), token));
    const running = [await poll(as(first.url)), await poll(as(first.url))];
    expect(running).toEqual(jobs.slice(0, 2));
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));

    const second = await start(config, store);
    expect(second.lines()).toMatch(/2 users incl\. default admin/);
    const e = as(second.url);
    // The token from before the crash is still valid; alice is still deactivated (the seed did not run again).
    const me = await fetch(`${second.url}/api/v2/admin/users/getCurrent`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    const alice = await fetch(`${second.url}/_emulate/platform/users/alice/activate`, { method: 'POST' });
    expect(await alice.json()).toEqual({ username: 'alice', active: true });
    expect(await status(e, token, jobs[0]!)).toBe('inProgress');
    expect(await status(e, token, jobs[4]!)).toBe('queued');

    // The module comes back and opens a new session: the two jobs it held go back to the queue, in order.
    const session = await fetch(`${second.url}${RUNTIMES}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ runtimeId: RUNTIME, moduleAuthToken: MODULE_TOKEN }),
    });
    expect(session.status).toBe(200);
    const delivered: string[] = [];
    for (let i = 0; i < 5; i++) {
      const jobId = (await poll(e))!;
      delivered.push(jobId);
      expect(await postResult(e, jobId, `r${i}`)).toBe(200);
    }
    expect(delivered).toEqual(jobs);
    const res = await fetch(`${second.url}${MUX}/jobs/result/v2`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ id: jobs[0] }),
    });
    expect(await res.text()).toBe('r0');
  });

  it('says so when an --import file meets a database that holds state already', async () => {
    const { config, store } = fresh('pe-import-');
    const first = await start(config, store);
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    const imported = join(dir!, 'export.yaml');
    writeFileSync(imported, stringify({ platform: { users: [{ username: 'imported' }] } }));
    const second = await start(config, store, ['--import', imported]);
    // The log line is written asynchronously: it may come after the banner.
    for (let i = 0; i < 100 && !second.lines().includes('--import file'); i++) await new Promise((r) => setTimeout(r, 20));
    expect(second.lines()).toContain('the --import file was not applied: the database holds state already');
  });
});
