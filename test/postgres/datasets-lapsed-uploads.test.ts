// A one-call dataset upload of an instance killed mid-body (docs/datasets.md, "Transactions and views"): its
// transaction names the instance, whose lease stops being renewed; once it lapses (module_gone_ms, by the
// database's clock) the next open on the branch, on a survivor, aborts it and proceeds. A live instance's slow
// upload and a transaction a client opened are never taken back.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { freshSchemaUrl } from '../helpers/store.js';
import { spawnCli, waitForLine } from '../helpers/cli.js';
import { controlToken } from '../clients/conformance-helpers.js';
import { baseUrl } from './helpers.js';
import { stalledUpload as startStalledUpload } from './stalled-upload.js';
import { startEmulator } from '../../src/index.js';
import { startServer } from '../../src/main.js';

const GONE_MS = 1500;
const RID = 'ri.foundry.main.dataset.lapsed';
const SEED = {
  platform: {
    users: [{ username: 'dev' }],
    compute_modules: { module_gone_ms: GONE_MS },
    datasets: [{ rid: RID, name: 'lapsed', files: [{ path: 'seed.csv', content: 'a\n0\n' }] }],
  },
};
const SCOPES = ['api:datasets-read', 'api:datasets-write'];

const children: ChildProcess[] = [];
const sockets: Socket[] = [];
const closers: Array<() => Promise<void>> = [];
let dir: string | undefined;
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const socket of sockets.splice(0)) socket.destroy(); // an upload still held would keep its instance from closing
  await Promise.all(closers.splice(0).map((close) => close().catch(() => undefined)));
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function stalledUpload(...args: Parameters<typeof startStalledUpload>) {
  const stalled = await startStalledUpload(...args);
  sockets.push(stalled.socket);
  return stalled;
}

/** An emulator child on `store`, to be SIGKILLed: its URL and a kill that resolves once it is gone. */
async function doomedInstance(store: string): Promise<{ url: string; kill: () => Promise<void> }> {
  dir ??= mkdtempSync(join(tmpdir(), 'pe-lapsed-'));
  const config = join(dir, 'emulator.yaml');
  writeFileSync(config, stringify(SEED));
  const child = spawnCli(['--config', config, '--port', '0', '--store', store, '--log-level', 'warn']);
  children.push(child);
  const url = /listening on (\S+)/.exec(await waitForLine(child, /listening on/))![1]!;
  return {
    url,
    kill: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
}

function client(token: string) {
  const call = (url: string, path: string, init: RequestInit = {}) =>
    fetch(`${url}/api/v2/datasets/${RID}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(init.headers ?? {}) },
    });
  const json = async <T>(url: string, path: string, init?: RequestInit) => (await (await call(url, path, init)).json()) as T;
  return {
    call,
    json,
    upload: async (url: string, path: string, branch: string) =>
      (
        await call(url, `/files/${path}/upload?branchName=${branch}`, {
          method: 'POST',
          headers: { 'content-type': 'application/octet-stream' },
          body: 'a\n9\n',
        })
      ).status,
    /** Uploads until accepted (409 while the branch is held), for at most `withinMs`; the last status. */
    async uploadOnceFree(url: string, path: string, branch: string, withinMs = 10_000): Promise<number> {
      const deadline = Date.now() + withinMs;
      for (;;) {
        const status = await this.upload(url, path, branch);
        if (status !== 409 || Date.now() > deadline) return status;
        await sleep(100);
      }
    },
    /** The branch's open transaction, once there is one. */
    async openOn(url: string, branch: string): Promise<string> {
      for (let i = 0; i < 400; i++) {
        const rid = (await json<{ transactionRid?: string }>(url, `/branches/${branch}`)).transactionRid;
        if (rid && (await json<{ status: string }>(url, `/transactions/${rid}`)).status === 'OPEN') return rid;
        await sleep(25);
      }
      throw new Error(`no open transaction on ${branch}`);
    },
    files: async (url: string, branch: string) => (await json<{ data: Array<{ path: string }> }>(url, `/files?branchName=${branch}`)).data.map((f) => f.path),
  };
}

describe('a one-call upload whose instance is SIGKILLed mid-body', () => {
  it("is aborted by the next upload on the branch once the instance's lease lapses, and none of it is in any view", async () => {
    const store = freshSchemaUrl(baseUrl());
    const lines: string[] = [];
    const survivor = await startServer({ seed: SEED, store, port: 0, defaultPort: 0, logLevel: 'info', logDestination: { write: (l) => lines.push(l) } });
    closers.push(() => survivor.close());
    const doomed = await doomedInstance(store);
    const api = client(await controlToken(survivor.url, 'dev', SCOPES));

    const stalled = await stalledUpload(doomed.url, await controlToken(survivor.url, 'dev', SCOPES), RID, 'killed.csv', 'master');
    const killedRid = await api.openOn(survivor.url, 'master');
    await doomed.kill();
    stalled.socket.destroy();
    const killedAt = Date.now();

    // Its lease was renewed within the last third of the lapse: the branch is still held.
    expect(await api.upload(survivor.url, 'later.csv', 'master')).toBe(409);
    expect(await api.uploadOnceFree(survivor.url, 'later.csv', 'master')).toBe(200);
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual(GONE_MS / 2);

    const killed = await api.json<{ status: string; closedTime?: string }>(survivor.url, `/transactions/${killedRid}`);
    expect(killed.status).toBe('ABORTED');
    expect(killed.closedTime).toBeDefined();
    expect(await api.files(survivor.url, 'master')).toEqual(['later.csv', 'seed.csv']);
    expect((await api.call(survivor.url, '/files/killed.csv')).status).toBe(404);
    // An aborted transaction ends no view, as after an abort by rid.
    const ending = await api.call(survivor.url, `/files?endTransactionRid=${killedRid}`);
    expect([ending.status, ((await ending.json()) as { errorName: string }).errorName]).toEqual([404, 'TransactionNotFound']);
    expect(await (await api.call(survivor.url, '/files/later.csv/content')).text()).toBe('a\n9\n');

    const told = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.transactionRid === killedRid);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ level: 30, datasetRid: RID, instance: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  });

  it('a live instance keeps its slow upload past the lapse, while the dead one is taken back in that time', async () => {
    const store = freshSchemaUrl(baseUrl());
    const live = await startEmulator({ seed: SEED, store });
    closers.push(() => live.close());
    const other = await startEmulator({ seed: SEED, store });
    closers.push(() => other.close());
    const doomed = await doomedInstance(store);
    const token = await controlToken(live.url, 'dev', SCOPES);
    const api = client(token);
    expect((await api.call(live.url, '/branches', { method: 'POST', body: JSON.stringify({ name: 'dead' }) })).status).toBe(200);

    const slow = await stalledUpload(live.url, token, RID, 'slow.csv', 'master');
    const slowRid = await api.openOn(other.url, 'master');
    const opened = Date.now();
    const stalled = await stalledUpload(doomed.url, token, RID, 'killed.csv', 'dead');
    await api.openOn(other.url, 'dead');
    await doomed.kill();
    stalled.socket.destroy();

    expect(await api.uploadOnceFree(other.url, 'taken.csv', 'dead')).toBe(200);
    await sleep(Math.max(0, opened + 2 * GONE_MS - Date.now()));
    expect(await api.upload(other.url, 'later.csv', 'master')).toBe(409);
    expect((await api.json<{ status: string }>(other.url, `/transactions/${slowRid}`)).status).toBe('OPEN');

    expect(await slow.finish()).toBe(200);
    slow.socket.destroy();
    expect(await api.upload(other.url, 'later.csv', 'master')).toBe(200);
    expect(await api.files(other.url, 'master')).toEqual(['later.csv', 'seed.csv', 'slow.csv']);
  });

  it('a transaction a client opened through the dead instance stays open for the client, unlike its one-call upload', async () => {
    const store = freshSchemaUrl(baseUrl());
    const survivor = await startEmulator({ seed: SEED, store });
    closers.push(() => survivor.close());
    const doomed = await doomedInstance(store);
    const token = await controlToken(survivor.url, 'dev', SCOPES);
    const api = client(token);
    expect((await api.call(survivor.url, '/branches', { method: 'POST', body: JSON.stringify({ name: 'one-call' }) })).status).toBe(200);

    const body = JSON.stringify({ transactionType: 'UPDATE' });
    const explicit = await api.json<{ rid: string }>(doomed.url, '/transactions?branchName=master', { method: 'POST', body });
    const put = await api.call(doomed.url, `/files/kept.csv/upload?transactionRid=${explicit.rid}`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: 'a\n5\n',
    });
    expect(put.status).toBe(200);
    const stalled = await stalledUpload(doomed.url, token, RID, 'killed.csv', 'one-call');
    await api.openOn(survivor.url, 'one-call');
    await doomed.kill();
    stalled.socket.destroy();

    expect(await api.uploadOnceFree(survivor.url, 'taken.csv', 'one-call')).toBe(200);
    expect((await api.call(survivor.url, '/transactions?branchName=master', { method: 'POST', body })).status).toBe(409);
    expect(await api.upload(survivor.url, 'later.csv', 'master')).toBe(409);
    expect((await api.call(survivor.url, `/transactions/${explicit.rid}/commit`, { method: 'POST', body: '{}' })).status).toBe(200);
    expect(await api.files(survivor.url, 'master')).toEqual(['kept.csv', 'seed.csv']);
  });
});
