// startEmulator()'s typed helpers: the control routes without HTTP plumbing, and a free port by default.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type Emulator, EmulatorControlError } from '../../src/index.js';

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const SEED = {
  platform: { users: [{ username: 'alice' }], ontologies: [{ api_name: 'shop', display_name: 'Shop', queries: [{ api_name: 'count', result: 0 }] }] },
};

describe('startEmulator helpers', () => {
  it('listens on a free port even when the config file names one', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'platform-emulator-')), 'seed.yaml');
    writeFileSync(file, 'platform:\n  port: 1\n');
    emulator = await startEmulator({ config: file });
    expect(emulator.url).toMatch(/^http:\/\/localhost:\d+$/);
    expect(emulator.url).not.toBe('http://localhost:1');
    expect((await fetch(`${emulator.url}/_emulate/health`)).status).toBe(200);
  });

  it('mintToken, journal, advanceClock: a token works, then expires, and the journal says why', async () => {
    emulator = await startEmulator({ seed: SEED });
    const token = await emulator.mintToken('alice', ['api:admin-read']);
    const get = () => fetch(`${emulator!.url}/api/v2/admin/users/getCurrent`, { headers: { authorization: `Bearer ${token}` } });
    expect((await get()).status).toBe(200);
    const now = await emulator.advanceClock(3600_000);
    expect(Date.parse(now)).toBeGreaterThan(Date.now() + 3500_000);
    expect((await get()).status).toBe(401);
    const [latest] = emulator.journal({ refusals: true });
    expect(latest).toMatchObject({
      method: 'GET',
      path: '/api/v2/admin/users/getCurrent',
      status: 401,
      errorCode: 'unauthenticated',
      reason: expect.stringContaining('expired'),
    });
    await expect(emulator.mintToken('nobody')).rejects.toBeInstanceOf(EmulatorControlError);
  });

  it('setQueryResult, fault and exportState', async () => {
    emulator = await startEmulator({ seed: SEED });
    await emulator.setQueryResult('shop', 'count', { n: 7 });
    expect((await emulator.exportState()).platform.ontologies).toEqual([
      { rid: expect.any(String), api_name: 'shop', display_name: 'Shop', description: '', queries: [{ api_name: 'count', result: { n: 7 } }] },
    ]);
    const fault = await emulator.fault({ path: '/api/v2/**', status: 503 });
    expect(fault).toMatchObject({ id: expect.any(Number), method: '*', remaining: 1 });
    expect((await fetch(`${emulator.url}/api/v2/ontologies`)).status).toBe(503);
    expect((await fetch(`${emulator.url}/api/v2/ontologies`)).status).toBe(401);
    await emulator.reset();
    expect(emulator.journal()).toEqual([]);
  });
});
