// Module liveness across instances (docs/contracts.md §6 leases, §12): a module that polls only instance B is alive for
// instance A too, because every instance records polls in the store and reads them before calling a module
// gone. Without that, A (which saw the module's last poll long ago) would take back the jobs B handed out.
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/index.js';
import { freshSchemaUrl } from '../helpers/store.js';
import { SEED, baseUrl, mint, poll, status, submit } from './helpers.js';

const GONE_MS = 1500;
const seedWith = (pollTimeoutMs: number) => ({
  platform: { ...SEED.platform, compute_modules: { ...SEED.platform.compute_modules, poll_timeout_ms: pollTimeoutMs, module_gone_ms: GONE_MS } },
});

const started: Emulator[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((e) => e.close().catch(() => undefined)));
});

async function two(pollTimeoutMs = 200): Promise<[Emulator, Emulator]> {
  const seed = seedWith(pollTimeoutMs);
  const store = freshSchemaUrl(baseUrl());
  const a = await startEmulator({ seed, store });
  const b = await startEmulator({ seed, store });
  started.push(a, b);
  return [a, b];
}

/** Polls `e` until `ms` have passed; the job ids it was handed. */
async function pollFor(e: Emulator, ms: number): Promise<string[]> {
  const handed: string[] = [];
  for (const end = Date.now() + ms; Date.now() < end;) {
    const id = await poll(e);
    if (id) handed.push(id);
  }
  return handed;
}

/** The job's state as the store has it, once it is `want` or the deadline passes. */
async function stateWithin(e: Emulator, jobId: string, want: string, ms: number): Promise<string | undefined> {
  let state: string | undefined;
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
    state = (await e.server.store.computeModuleJobs.byId(jobId))?.state;
    if (state === want) break;
  }
  return state;
}

describe('module liveness across instances', () => {
  it('a module that took a job from A, then polls only B, keeps it; once it stops polling, the job comes back', async () => {
    const [a, b] = await two();
    const token = await mint(a);
    const jobId = await submit(a, token);
    expect(await poll(a)).toBe(jobId); // A hands it out and last sees the module here: its gone-timer is armed
    // Well past A's module_gone_ms, with the module polling B all along: nothing is taken back, nothing handed twice.
    expect(await pollFor(b, GONE_MS * 2.5)).toEqual([]);
    expect(await status(a, token, jobId)).toBe('inProgress');
    expect((await a.server.store.computeModuleJobs.byId(jobId))?.handOuts).toBe(1);
    // The module stops polling everywhere: after module_gone_ms (plus the second a record may lag) it is gone.
    expect(await stateWithin(a, jobId, 'queued', GONE_MS + 4000)).toBe('queued');
    expect(await poll(a)).toBe(jobId);
    expect((await a.server.store.computeModuleJobs.byId(jobId))?.handOuts).toBe(2);
  });

  it('a poll held on B longer than module_gone_ms counts as the module being there, for A too', async () => {
    const [a, b] = await two(GONE_MS * 2); // each poll is held twice as long as module_gone_ms
    const token = await mint(a);
    const jobId = await submit(a, token);
    expect(await poll(a)).toBe(jobId); // handed out by A; A's gone-timer is armed from the end of this poll
    // One poll held on B throughout A's module_gone_ms and beyond (B records it every second while held).
    expect(await poll(b)).toBeUndefined();
    expect((await a.server.store.computeModuleJobs.byId(jobId))?.handOuts).toBe(1);
    expect((await a.server.store.computeModuleJobs.byId(jobId))?.state).toBe('inProgress');
  });
});
