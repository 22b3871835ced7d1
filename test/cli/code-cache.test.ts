// The built CLI starts through V8's code cache (src/cli-launcher.ts): the first start after a build writes it
// once listening, later starts read it and leave it alone, a cache V8 refuses is replaced, and `off` skips it;
// a bundle that is not ASCII only is still read right.
// Each case runs a copy of the test bundle, so that the other CLI tests' starts never touch its cache.
import { afterAll, describe, expect, it } from 'vitest';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { BUNDLE_DIR, ROOT, collect, waitForLine } from '../helpers/cli.js';

const copies: string[] = [];
afterAll(() => copies.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function bundleCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'platform-emulator-cache-'));
  cpSync(BUNDLE_DIR, dir, { recursive: true });
  rmSync(join(dir, '.cache'), { recursive: true, force: true });
  copies.push(dir);
  return dir;
}

/** Starts the copy's CLI, waits until it listens and has handled the ready event, then stops it. */
async function startAndStop(dir: string, env: NodeJS.ProcessEnv = {}, nodeFlags: string[] = []): Promise<void> {
  const child = spawn(process.execPath, [...nodeFlags, join(dir, 'cli.js'), '--port', '0'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '', PLATFORM_EMULATOR_CONFIG: '', NODE_OPTIONS: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const done = collect(child);
  const url = (await waitForLine(child, /listening on/)).match(/(http:\/\/localhost:\d+)/)![1]!;
  expect((await fetch(`${url}/_emulate/health`)).status).toBe(200);
  child.kill('SIGTERM');
  expect((await done).code).toBe(0);
}

const cacheFiles = (dir: string) => (existsSync(join(dir, '.cache')) ? readdirSync(join(dir, '.cache')) : []);

describe('the CLI code cache', () => {
  it('is written by the first start, then read by the next without being rewritten', async () => {
    const dir = bundleCopy();
    await startAndStop(dir);
    const [file, ...others] = cacheFiles(dir);
    expect(others).toEqual([]);
    expect(file).toMatch(new RegExp(`^cli-[0-9a-f]{16}-${process.version}-${process.arch}\\.v8$`));
    const path = join(dir, '.cache', file!);
    const written = statSync(path);
    expect(written.size).toBeGreaterThan(100_000);
    await startAndStop(dir);
    expect(statSync(path).mtimeMs).toBe(written.mtimeMs); // V8 took it: nothing to write again
  });

  it('replaces a cache V8 refuses, and a start with it off neither reads nor writes one', async () => {
    const dir = bundleCopy();
    await startAndStop(dir, { PLATFORM_EMULATOR_CODE_CACHE: 'off' });
    expect(cacheFiles(dir)).toEqual([]);
    await startAndStop(dir);
    const [file] = cacheFiles(dir);
    const path = join(dir, '.cache', file!);
    writeFileSync(path, Buffer.alloc(4096, 7)); // not V8's: refused, and the start compiles as without it
    await startAndStop(dir);
    expect(statSync(path).size).toBeGreaterThan(100_000);
  });

  it('keeps a cache of its own for starts with Node flags, leaving the plain one alone', async () => {
    const dir = bundleCopy();
    await startAndStop(dir);
    const [plain] = cacheFiles(dir);
    const plainPath = join(dir, '.cache', plain!);
    const written = statSync(plainPath).mtimeMs;
    await startAndStop(dir, {}, ['--max-old-space-size=512']);
    const flagged = cacheFiles(dir).filter((f) => f !== plain);
    expect(flagged).toHaveLength(1);
    expect(flagged[0]).toMatch(new RegExp(`^cli-[0-9a-f]{16}-${process.version}-${process.arch}-f[0-9a-f]{8}\\.v8$`));
    await startAndStop(dir);
    expect(statSync(plainPath).mtimeMs).toBe(written); // not rewritten by the flagged start
    expect(cacheFiles(dir).filter((f) => !f.endsWith('.v8'))).toEqual([]); // no partial file left behind
  });

  it('reads a bundle that holds characters outside ASCII as UTF-8 (one built some other way)', async () => {
    const dir = bundleCopy();
    const bundle = join(dir, 'cli-main.cjs');
    const text = readFileSync(bundle, 'latin1');
    expect(text).toContain('\\u00b7'); // the sign-in page's separator, escaped by the build
    writeFileSync(bundle, text.replace('\\u00b7', '·'), 'utf8');
    const child = spawn(process.execPath, [join(dir, 'cli.js'), '--port', '0', '--log-level', 'silent'], {
      cwd: ROOT,
      env: { ...process.env, PORT: '', PLATFORM_EMULATOR_CONFIG: '', PLATFORM_EMULATOR_CODE_CACHE: 'off' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const done = collect(child);
    const url = (await waitForLine(child, /listening on/)).match(/(http:\/\/localhost:\d+)/)![1]!;
    const page = await fetch(`${url}/idp/api/oauth2/authorize?client_id=x&response_type=code&redirect_uri=http://localhost:3000/cb`);
    expect(await page.text()).toContain('admin · admin@localhost'); // read as Latin-1, it would be `Â·`
    child.kill('SIGTERM');
    expect((await done).code).toBe(0);
  });
});
