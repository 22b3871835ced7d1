// `platform-emulator run-module`: the session, the environment and token file it gives the module,
// signal forwarding, exit codes and its errors. A small node script stands in for COMMAND here; the real
// runtime SDK runs through it in test/clients/compute-module-sdk.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type Emulator } from '../../src/index.js';
import { collect, runCli, spawnCli, waitForLine } from '../helpers/cli.js';

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({
    seed: { platform: { compute_modules: { poll_timeout_ms: 50, runtimes: [{ runtime_id: 'rt-cli', module_auth_token: 'seeded-token' }] } } },
  });
});
afterAll(() => emulator.close());

// Prints what a module would see, as one JSON line, then exits with code 7.
const REPORT = `
const fs = require('node:fs');
const file = process.env.MODULE_AUTH_TOKEN;
console.log(JSON.stringify({
  env: { GET_JOB_URI: process.env.GET_JOB_URI, POST_RESULT_URI: process.env.POST_RESULT_URI, POST_SCHEMA_URI: process.env.POST_SCHEMA_URI },
  file, token: fs.readFileSync(file, 'utf8'), mode: (fs.statSync(file).mode & 0o777).toString(8),
}));
process.exit(7);`;

describe('run-module', () => {
  it('opens a session, hands the module the URIs and a private token file, and exits with its code', async () => {
    const result = await runCli(['run-module', '--runtime', 'rt-cli', '--url', emulator.url, '--', process.execPath, '-e', REPORT]);
    expect(result.code).toBe(7);
    const seen = JSON.parse(result.stdout.trim()) as { env: Record<string, string>; file: string; token: string; mode: string };
    const prefix = `${emulator.url}/_emulate/platform/compute-modules/runtimes/rt-cli`;
    expect(seen.env).toEqual({ GET_JOB_URI: `${prefix}/job`, POST_RESULT_URI: `${prefix}/results`, POST_SCHEMA_URI: `${prefix}/schemas` });
    expect(seen.token).toMatch(/^[A-Za-z0-9_-]{43}$/); // rotated, no trailing newline
    expect(seen.token).not.toBe('seeded-token');
    expect(seen.mode).toBe('600');
    expect(existsSync(seen.file)).toBe(false); // removed once the module exited
    const poll = await fetch(`${prefix}/job`, { headers: { 'module-auth-token': seen.token } });
    expect(poll.status).toBe(204); // the token the module was given is the session's
    expect(result.stdout).not.toContain('seeded-token');
  });

  it('with --config, finds the server as start would: PORT over the config port, base_url over both', async () => {
    const port = new URL(emulator.url).port;
    const dir = mkdtempSync(join(tmpdir(), 'run-module-'));
    const printUri = `console.log(process.env.GET_JOB_URI)`;
    const portOnly = join(dir, 'port.yaml');
    writeFileSync(portOnly, 'platform:\n  port: 1\n'); // nothing listens on port 1: only PORT can make this work
    const viaPort = await runCli(['run-module', '--runtime', 'rt-cli', '--config', portOnly, '--', process.execPath, '-e', printUri], { env: { PORT: port } });
    expect(viaPort.code).toBe(0);
    expect(viaPort.stdout.trim()).toBe(`${emulator.url}/_emulate/platform/compute-modules/runtimes/rt-cli/job`);
    const withBase = join(dir, 'base.yaml');
    writeFileSync(withBase, `platform:\n  port: 1\n  base_url: http://127.0.0.1:${port}/\n`);
    const viaBase = await runCli(['run-module', '--runtime', 'rt-cli', '--config', withBase, '--', process.execPath, '-e', printUri]);
    expect(viaBase.code).toBe(0);
    expect(viaBase.stdout.trim()).toMatch(/\/_emulate\/platform\/compute-modules\/runtimes\/rt-cli\/job$/);
  });

  it('forwards SIGTERM to the module and reports how it ended', async () => {
    const script = `process.on('SIGTERM', () => { console.log('module got SIGTERM'); process.exit(3); }); console.log('module ready'); setInterval(() => {}, 1000);`;
    const child = spawnCli(['run-module', '--runtime', 'rt-cli', '--url', emulator.url, '--', process.execPath, '-e', script]);
    const done = collect(child);
    await waitForLine(child, /module ready/);
    child.kill('SIGTERM');
    const result = await done;
    expect(result.stdout).toContain('module got SIGTERM');
    expect(result.code).toBe(3);
  });

  it('binds a deployed app when asked, so that jobs for it reach the module', async () => {
    // Polls (each held 50 ms) until it is handed a job, at most 200 times.
    const script = `
      const token = require('node:fs').readFileSync(process.env.MODULE_AUTH_TOKEN, 'utf8');
      (async () => {
        for (let i = 0; i < 200; i++) {
          const r = await fetch(process.env.GET_JOB_URI, { headers: { 'module-auth-token': token } });
          if (r.status === 200) return console.log(JSON.stringify(await r.json()));
        }
        process.exit(9);
      })();`;
    const tokenRes = await fetch(`${emulator.url}/_emulate/platform/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin' }),
    });
    const { access_token } = (await tokenRes.json()) as { access_token: string };
    const child = spawnCli([
      'run-module',
      '--runtime',
      'rt-bound',
      '--url',
      emulator.url,
      '--deployed-app',
      'ri.app.cli',
      '--branch',
      'dev',
      '--',
      process.execPath,
      '-e',
      script,
    ]);
    const done = collect(child);
    // The session exists once run-module has printed its start line; then submit for the bound app.
    await new Promise<void>((resolve) => child.stderr!.on('data', (d) => String(d).includes('starting') && resolve()));
    const submitted = await fetch(`${emulator.url}/analytics-backend-multiplexer/api/module-group-multiplexer/deployed-apps/jobs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ deployedAppRid: 'ri.app.cli', deployedAppBranch: 'dev', queryType: 'q', query: { n: 1 } }),
    });
    expect(submitted.status).toBe(200);
    const result = await done;
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('"queryType":"q"');
  });

  it('gives a Python module the in-pod runtime: host, port, restart URI, CA and service-discovery files (0600, removed at exit)', async () => {
    const report = `
      const fs = require('node:fs');
      const names = ['RUNTIME_HOST', 'RUNTIME_PORT', 'RESTART_NOTIFICATION_URI', 'CONNECTIONS_TO_OTHER_PODS_CA_PATH', 'DEFAULT_CA_PATH', 'FOUNDRY_SERVICE_DISCOVERY_V2', 'FOUNDRY_HOSTNAME', 'GET_JOB_URI_V2'];
      const env = Object.fromEntries(names.map((n) => [n, process.env[n]]));
      const file = (p) => ({ path: p, mode: (fs.statSync(p).mode & 0o777).toString(8), text: fs.readFileSync(p, 'utf8') });
      console.log(JSON.stringify({ env, ca: file(env.CONNECTIONS_TO_OTHER_PODS_CA_PATH), discovery: file(env.FOUNDRY_SERVICE_DISCOVERY_V2) }));`;
    const result = await runCli(['run-module', '--runtime', 'rt-cli', '--url', emulator.url, '--', process.execPath, '-e', report]);
    expect(result.code).toBe(0);
    const seen = JSON.parse(result.stdout.trim()) as {
      env: Record<string, string | undefined>;
      ca: { path: string; mode: string; text: string };
      discovery: { path: string; mode: string; text: string };
    };
    const pod = await emulator.server.podListener();
    expect(seen.env).toMatchObject({
      RUNTIME_HOST: '127.0.0.1',
      RUNTIME_PORT: String(pod.port),
      RESTART_NOTIFICATION_URI: `${pod.url}/_emulate/platform/compute-modules/runtimes/rt-cli/restart`,
      DEFAULT_CA_PATH: seen.ca.path,
      FOUNDRY_HOSTNAME: new URL(emulator.url).host,
    });
    expect(seen.env.GET_JOB_URI_V2).toBeUndefined(); // neither installed SDK reads the V2 variables
    expect(seen.ca).toMatchObject({ mode: '600', text: pod.caCertificate });
    expect(seen.discovery.mode).toBe('600');
    expect(seen.discovery.text).toBe(
      `api_gateway:\n  - "${emulator.url}/api"\nstream_proxy:\n  - "${emulator.url}/stream-proxy/api"\nmultipass:\n  - "${emulator.url}/idp/api"\n`,
    );
    expect(existsSync(seen.ca.path)).toBe(false);
    expect(existsSync(seen.discovery.path)).toBe(false);
  });

  it('fails clearly when the emulator cannot be reached (exit 1)', async () => {
    const unreachable = await runCli(['run-module', '--runtime', 'x', '--url', 'http://127.0.0.1:9', '--', process.execPath, '-e', '']);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain('cannot reach the emulator at http://127.0.0.1:9');
  });

  it('fails clearly when the command line is wrong (exit 2) or the command is missing (127)', async () => {
    const noRuntime = await runCli(['run-module', '--url', emulator.url, '--', 'true']);
    expect(noRuntime.code).toBe(2);
    expect(noRuntime.stderr).toContain('--runtime ID is required');
    const noCommand = await runCli(['run-module', '--runtime', 'x', '--url', emulator.url]);
    expect(noCommand.code).toBe(2);
    const missing = await runCli(['run-module', '--runtime', 'x', '--url', emulator.url, '--', 'no-such-command-anywhere']);
    expect(missing.code).toBe(127);
    expect(missing.stderr).toContain('command not found');
  });

  it('is described by --help', async () => {
    const result = await runCli(['--help']);
    expect(result.stdout).toContain('platform-emulator run-module --runtime ID');
    expect(result.stdout).toContain('MODULE_AUTH_TOKEN');
  });
});
