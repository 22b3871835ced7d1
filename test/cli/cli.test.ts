import { describe, expect, it } from 'vitest';
import { parseTestSeed } from '../helpers/seed.js';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { collect, runCli, spawnCli, waitForLine } from '../helpers/cli.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'platform-emulator-'));

describe('platform-emulator command line', () => {
  it('--help documents the commands and options', async () => {
    const { code, stdout } = await runCli(['--help']);
    expect(code).toBe(0);
    for (const word of ['init', '--config', '--port', '--host', 'PORT', '--log-level']) expect(stdout).toContain(word);
  });

  it('init writes a valid starter config and refuses to overwrite it without --force', async () => {
    const file = join(tmp(), 'seed.yaml');
    expect((await runCli(['init', file])).code).toBe(0);
    expect(parseTestSeed(readFileSync(file, 'utf8')).users.length).toBeGreaterThan(0);
    const again = await runCli(['init', file]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('--force');
    expect((await runCli(['init', file, '--force'])).code).toBe(0);
  });

  it('exits 2 with every problem and its path for a bad config, starting nothing', async () => {
    const file = join(tmp(), 'bad.yaml');
    writeFileSync(file, 'platform:\n  users:\n    - display_name: x\n  oauth_clientz: []\n');
    const { code, stderr, stdout } = await runCli(['--config', file, '--port', '0']);
    expect(code).toBe(2);
    expect(stderr).toContain('platform.users[0].username: required');
    expect(stderr).toContain('platform.oauth_clientz: unknown key (did you mean `oauth_clients`?)');
    expect(stdout).not.toContain('listening');
  });

  it('exits 2 for an unknown flag or a bad port', async () => {
    expect((await runCli(['--bogus'])).code).toBe(2);
    const bad = await runCli(['--port', 'abc']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--port: "abc" is not a port number');
  });

  it('starts, prints one line with the URL and the seeded counts, serves, and exits 0 on SIGTERM', async () => {
    const file = join(tmp(), 'seed.yaml');
    writeFileSync(file, 'platform:\n  users: [{ username: alice }, { username: alice }]\n  oauth_clients: [{ client_id: a, client_secret: b }]\n');
    const child = spawnCli(['--config', file, '--port', '0', '--log-level', 'warn']);
    const done = collect(child);
    const line = await waitForLine(child, /listening on/);
    expect(line).toMatch(/^platform-emulator listening on http:\/\/localhost:\d+ \(2 users incl\. default admin, 1 oauth client\)$/);
    const url = line.match(/(http:\/\/localhost:\d+)/)![1]!;
    const health = await fetch(`${url}/_emulate/health`);
    expect(await health.json()).toEqual({ status: 'ok' });
    child.kill('SIGTERM');
    const result = await done;
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('warning: platform.users[1]: duplicate username "alice" skipped');
  });

  it('takes the port from PORT when --port is absent', async () => {
    // A port outside Linux's ephemeral range (32768-60999), so parallel tests binding port 0 never take it.
    const port = await freePortBelowEphemeralRange();
    const child = spawnCli(['--log-level', 'silent'], { env: { PORT: String(port) } });
    const done = collect(child);
    expect(await waitForLine(child, /listening on/)).toContain(`localhost:${port}`);
    child.kill('SIGINT');
    expect((await done).code).toBe(0);
  });
});

async function freePortBelowEphemeralRange(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = 20000 + Math.floor(Math.random() * 10000);
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error('no free port found in 20000-29999');
}
