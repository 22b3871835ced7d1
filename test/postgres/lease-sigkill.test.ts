// An instance SIGKILLed while its module's poll was held there, with a job it had just handed out (issue 25):
// the job's lease was that instance's; the survivor's sweeper returns it to the queue once the lease lapses
// (module_gone_ms), counted as a hand-out, and the module now polling the survivor answers it exactly once.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { freshSchemaUrl } from '../helpers/store.js';
import { spawnCli, waitForLine } from '../helpers/cli.js';
import { MODULE_TOKEN, RUNTIME, RUNTIMES, SEED, baseUrl, mint, poll, postResult, status, submit } from './helpers.js';
import { startEmulator, type Emulator } from '../../src/index.js';

const GONE_MS = 1500;
const seed = { platform: { ...SEED.platform, compute_modules: { ...SEED.platform.compute_modules, poll_timeout_ms: 5000, module_gone_ms: GONE_MS } } };

const children: ChildProcess[] = [];
let survivor: Emulator | undefined;
let dir: string | undefined;
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await survivor?.close();
  survivor = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('a job handed out by an instance that is SIGKILLed', () => {
  it("comes back through the survivor once the dead instance's lease lapses, and is answered exactly once", async () => {
    dir = mkdtempSync(join(tmpdir(), 'pe-lease-'));
    const config = join(dir, 'emulator.yaml');
    writeFileSync(config, stringify(seed));
    const store = freshSchemaUrl(baseUrl());
    survivor = await startEmulator({ seed, store });
    const doomed = spawnCli(['--config', config, '--port', '0', '--store', store, '--log-level', 'warn']);
    children.push(doomed);
    const doomedUrl = new URL(/listening on (\S+)/.exec(await waitForLine(doomed, /listening on/))![1]!);
    const token = await mint(survivor);

    // The module's poll, held on the doomed instance; its answer is never read.
    const socket = connect(Number(doomedUrl.port), '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.pause();
    socket.write(`GET ${RUNTIMES}/${RUNTIME}/job HTTP/1.1\r\nHost: x\r\nModule-Auth-Token: ${MODULE_TOKEN}\r\n\r\n`);
    await new Promise((resolve) => setTimeout(resolve, 300)); // the poll is held there
    const jobId = await submit(survivor, token);
    for (let i = 0; i < 200 && (await status(survivor, token, jobId)) !== 'inProgress'; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(await status(survivor, token, jobId)).toBe('inProgress'); // claimed by the doomed instance
    doomed.kill('SIGKILL');
    await new Promise((resolve) => doomed.once('exit', resolve));
    socket.destroy();

    // The module polls the survivor from now on, answering what it is given.
    const answered = new Map<string, number>();
    const started = Date.now();
    while ((await status(survivor, token, jobId)) !== 'succeeded' && Date.now() - started < 20_000) {
      const got = await poll(survivor);
      if (!got) continue;
      answered.set(got, (answered.get(got) ?? 0) + 1);
      expect(await postResult(survivor, got, `done ${got}`)).toBe(200);
    }
    expect(await status(survivor, token, jobId)).toBe('succeeded');
    expect([...answered]).toEqual([[jobId, 1]]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(GONE_MS - 500); // not before the lease could lapse
    const inspected = (await (await fetch(`${survivor.url}${RUNTIMES}/${RUNTIME}/jobs/${jobId}`)).json()) as { job: { handOuts: number } };
    expect(inspected.job.handOuts).toBe(2); // the lost hand-out counted
  });
});
