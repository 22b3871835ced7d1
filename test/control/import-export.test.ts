// The CLI's --export-on-exit writes the state on SIGTERM; --import starts from it (docs/contracts.md §7).
import { parseTestSeed } from '../helpers/seed.js';
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collect, spawnCli, waitForLine } from '../helpers/cli.js';

const urlOf = (line: string) => line.match(/(http:\/\/localhost:\d+)/)![1]!;

describe('--export-on-exit and --import', () => {
  it('saves what changed at run time on SIGTERM, and a later start with --import has it again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'platform-emulator-state-'));
    const config = join(dir, 'seed.yaml');
    const saved = join(dir, 'state.yaml');
    writeFileSync(config, 'platform:\n  users: [{ username: alice }]\n');

    const first = spawnCli(['--config', config, '--port', '0', '--log-level', 'warn', '--export-on-exit', saved]);
    const firstDone = collect(first);
    const url = urlOf(await waitForLine(first, /listening on/));
    const put = await fetch(`${url}/_emulate/platform/users/dave`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: '{"display_name":"Dave"}',
    });
    expect(put.status).toBe(200);
    first.kill('SIGTERM');
    expect((await firstDone).code).toBe(0);
    expect(statSync(saved).mode & 0o777).toBe(0o600);
    const doc = parseTestSeed(readFileSync(saved, 'utf8'));
    expect(doc.users.map((u: { username: string }) => u.username).sort()).toEqual(['admin', 'alice', 'dave']);

    // The import lays its entities over the config's: alice from the config, dave from the import.
    writeFileSync(config, 'platform:\n  users: [{ username: alice, display_name: Alice }]\n');
    const second = spawnCli(['--config', config, '--import', saved, '--port', '0', '--log-level', 'warn']);
    const secondDone = collect(second);
    const line = await waitForLine(second, /listening on/);
    expect(line).toContain('3 users');
    const url2 = urlOf(line);
    const mint = await fetch(`${url2}/_emulate/platform/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"username":"dave"}',
    });
    const { access_token } = (await mint.json()) as { access_token: string };
    const me = await fetch(`${url2}/idp/api/me`, { headers: { authorization: `Bearer ${access_token}` } });
    expect(await me.json()).toMatchObject({ username: 'dave', displayName: 'Dave' });
    second.kill('SIGTERM');
    const result = await secondDone;
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('duplicate');
  });

  it('exits 2 naming the problem when the import file is not a valid seed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'platform-emulator-state-'));
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'platform:\n  users: [{ nick: x }]\n');
    const result = await collect(spawnCli(['--import', bad, '--port', '0']));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('platform.users[0].username: required');
  });
});
