import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../src/index.js';

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

describe('startEmulator (programmatic API)', () => {
  it('listens on a free port by default and serves real HTTP', async () => {
    emulator = await startEmulator({ seed: { platform: { users: [{ username: 'alice' }] } } });
    expect(emulator.url).toMatch(/^http:\/\/localhost:\d+$/);
    const res = await fetch(`${emulator.url}/_emulate/platform/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'alice', scopes: [] }),
    });
    const { access_token } = (await res.json()) as { access_token: string };
    const me = await fetch(`${emulator.url}/idp/api/me`, { headers: { authorization: `Bearer ${access_token}` } });
    expect(await me.json()).toMatchObject({ username: 'alice', displayName: 'alice' });
  });

  it('reset() returns to the seed; close() frees the port', async () => {
    emulator = await startEmulator({ seed: 'platform:\n  users: [{ username: alice }]\n' });
    const { url } = emulator;
    const mint = await fetch(`${url}/_emulate/platform/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"username":"alice"}',
    });
    const { access_token } = (await mint.json()) as { access_token: string };
    await emulator.reset();
    const me = await fetch(`${url}/idp/api/me`, { headers: { authorization: `Bearer ${access_token}` } });
    expect(me.status).toBe(401);
    await emulator.close();
    emulator = undefined;
    await expect(fetch(`${url}/_emulate/health`)).rejects.toThrow();
  });

  it('rejects an invalid seed with every problem listed', async () => {
    await expect(startEmulator({ seed: { platform: { users: [{}] } } })).rejects.toThrow(/platform\.users\[0\]\.username: required/);
  });

  it('uses base_url in the URL it hands out', async () => {
    emulator = await startEmulator({ seed: { platform: { base_url: 'http://emulator.test:9999/' } } });
    expect(emulator.url).toBe('http://emulator.test:9999');
  });
});
