// The bundles (scripts/bundle.ts) hold Fastify, pino and ajv inside one file: the parts a bundler can break at
// run time are the logger's output, validation and the programmatic API. The other CLI tests run this bundle too.
import { describe, expect, it } from 'vitest';
import { isAscii } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BUNDLE_DIR, collect, spawnCli, waitForLine } from '../helpers/cli.js';
import type * as Api from '../../src/index.js';

describe('bundled build', () => {
  it('the CLI logs its start and a platform error through pino, and validates bodies with ajv', async () => {
    const child = spawnCli(['--port', '0']);
    const done = collect(child);
    const url = (await waitForLine(child, /listening on/)).match(/(http:\/\/localhost:\d+)/)![1]!;
    const res = await fetch(`${url}/_emulate/platform/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', scopes: 'not-a-list' }),
    });
    expect(res.status).toBe(400);
    const { errorInstanceId, errorDescription } = (await res.json()) as { errorInstanceId: string; errorDescription: string };
    expect(errorDescription).toContain('scopes must be array');
    child.kill('SIGTERM'); // pending log lines are written at exit (src/log-sink.ts)
    const { code, stdout } = await done;
    expect(code).toBe(0);
    const lines = stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.msg)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^Server listening at http:\/\/127\.0\.0\.1:\d+$/), 'platform error', 'shutting down']),
    );
    expect(lines.find((l) => l.msg === 'platform error')).toMatchObject({ level: 30, errorInstanceId, errorName: 'InvalidArgument' });
  });

  it('writes the CLI bundle in ASCII only, already wrapped as a CommonJS module (its front door reads it as is)', () => {
    const bytes = readFileSync(join(BUNDLE_DIR, 'cli-main.cjs'));
    expect(isAscii(bytes)).toBe(true);
    expect(bytes.toString('latin1')).toMatch(/^#!.*\n\(function \(exports, require, module, __filename, __dirname\) \{/);
  });

  it('the CLI keeps the characters outside ASCII that its bundle holds as escapes', async () => {
    const child = spawnCli(['--port', '0', '--log-level', 'silent']);
    const done = collect(child);
    const url = (await waitForLine(child, /listening on/)).match(/(http:\/\/localhost:\d+)/)![1]!;
    // Open mode (no client seeded): the sign-in page lists the default admin as `username · email`.
    const page = await fetch(`${url}/idp/api/oauth2/authorize?client_id=x&response_type=code&redirect_uri=http://localhost:3000/cb`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('admin · admin@localhost');
    child.kill('SIGTERM');
    expect((await done).code).toBe(0);
  });

  it('the programmatic API (index.js) starts, serves and closes an emulator', async () => {
    const api = (await import(pathToFileURL(join(BUNDLE_DIR, 'index.js')).href)) as typeof Api;
    const emulator = await api.startEmulator({ seed: { platform: { users: [{ username: 'alice' }] } } });
    try {
      const res = await fetch(`${emulator.url}/_emulate/platform/tokens`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'alice', scopes: [] }),
      });
      expect(res.status).toBe(200);
      await emulator.reset();
    } finally {
      await emulator.close();
    }
    await expect(api.startEmulator({ seed: { platform: { userz: [] } } })).rejects.toBeInstanceOf(api.SeedError);
  });
});
