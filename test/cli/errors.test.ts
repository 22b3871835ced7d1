// Start-up problems in words, through the real command line: a port in use, a config file that cannot be read,
// and control routes that will answer 404 because the service listens off loopback without a control_token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { collect, runCli, spawnCli, waitForLine } from '../helpers/cli.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'platform-emulator-'));
/** What a stack trace looks like in a Node error report. */
const STACK_LINE = /^\s+at /m;

describe('a port in use', () => {
  let blocker: Server;
  let port: number;
  beforeAll(async () => {
    blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    port = (blocker.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => blocker.close(() => resolve())));

  it('says which port is taken and what to do, exits non-zero, no stack and no raw code', async () => {
    const { code, stderr, stdout } = await runCli(['--port', String(port), '--log-level', 'warn']);
    expect(code).not.toBe(0);
    expect(code).not.toBeNull();
    expect(stderr).toContain(`port ${port}`);
    expect(stderr).toContain('already in use');
    expect(stderr).toContain('--port');
    expect(stderr).toContain('PORT');
    expect(stderr).not.toContain('EADDRINUSE');
    expect(stderr).not.toMatch(STACK_LINE);
    expect(stdout).not.toContain('listening');
  });

  it('says the same when the port came from PORT', async () => {
    const { code, stderr } = await runCli(['--log-level', 'warn'], { env: { PORT: String(port) } });
    expect(code).not.toBe(0);
    expect(stderr).toContain(`port ${port}`);
    expect(stderr).not.toContain('EADDRINUSE');
  });
});

describe('a config file that cannot be read', () => {
  it('a missing file: says which file, in words, exit 2', async () => {
    const file = join(tmp(), 'nope.yaml');
    const { code, stderr } = await runCli(['--config', file, '--port', '0']);
    expect(code).toBe(2);
    expect(stderr).toContain(file);
    expect(stderr).toMatch(/not found|no such file/i);
    expect(stderr).not.toContain('ENOENT');
    expect(stderr).not.toMatch(STACK_LINE);
  });

  it('the same through PLATFORM_EMULATOR_CONFIG', async () => {
    const file = join(tmp(), 'missing.yaml');
    const { code, stderr } = await runCli(['--port', '0'], { env: { PLATFORM_EMULATOR_CONFIG: file } });
    expect(code).toBe(2);
    expect(stderr).toContain(file);
    expect(stderr).toContain('PLATFORM_EMULATOR_CONFIG');
    expect(stderr).not.toContain('ENOENT');
  });

  it('a directory given as the file', async () => {
    const dir = tmp();
    const { code, stderr } = await runCli(['--config', dir, '--port', '0']);
    expect(code).toBe(2);
    expect(stderr).toContain(dir);
    expect(stderr).toContain('directory');
    expect(stderr).not.toContain('EISDIR');
  });

  it('run-module --config with a missing file says the same', async () => {
    const file = join(tmp(), 'gone.yaml');
    const { code, stderr } = await runCli(['run-module', '--runtime', 'r', '--config', file, '--', 'true']);
    expect(code).toBe(2);
    expect(stderr).toContain(file);
    expect(stderr).not.toContain('ENOENT');
  });
});

describe('control routes off loopback', () => {
  it('--host 0.0.0.0 without control_token warns at start that they answer 404, and how to enable them', async () => {
    const child = spawnCli(['--host', '0.0.0.0', '--port', '0', '--log-level', 'warn']);
    const done = collect(child);
    await waitForLine(child, /listening on/);
    child.kill('SIGTERM');
    const { stdout, code } = await done;
    expect(code).toBe(0);
    // The warning's words, not a bare `404`: the dashboard line also names control_token, and its port may hold 404.
    const warning = stdout.split('\n').find((l) => l.includes('control_token') && l.includes('answer 404'));
    expect(warning).toBeDefined();
    expect(warning).toContain('0.0.0.0');
    expect(warning).toContain('404');
    expect(warning).toContain('/_emulate/');
    expect(warning).toContain('Bearer');
  });

  it('the warning is true: a control route answers 404 from localhost', async () => {
    const child = spawnCli(['--host', '0.0.0.0', '--port', '0', '--log-level', 'warn']);
    const done = collect(child);
    const line = await waitForLine(child, /listening on/);
    const port = line.match(/:(\d+)/)![1]!;
    const res = await fetch(`http://127.0.0.1:${port}/_emulate/platform/reset`, { method: 'POST' });
    child.kill('SIGTERM');
    await done;
    expect(res.status).toBe(404);
  });

  it('no warning with a control_token, nor on loopback', async () => {
    const file = join(tmp(), 'seed.yaml');
    writeFileSync(file, 'platform:\n  control_token: a-control-token\n');
    for (const args of [
      ['--host', '0.0.0.0', '--config', file],
      ['--host', '127.0.0.1'],
    ]) {
      const child = spawnCli([...args, '--port', '0', '--log-level', 'warn']);
      const done = collect(child);
      await waitForLine(child, /listening on/);
      child.kill('SIGTERM');
      const { stdout } = await done;
      expect(stdout).not.toContain('control_token');
      expect(stdout).not.toContain('a-control-token');
    }
  });
});
