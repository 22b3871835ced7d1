// The package an app installs: `npm pack` holds the build and nothing of the repository's own (no sources,
// tests, benchmarks, CI or local config); installed OFFLINE from the local npm cache into a scratch project,
// the README's Vitest example passes there and `npx platform-emulator --help` works from node_modules/.bin.
import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script without types
import { staleBecause } from '../../scripts/start.mjs';
import { closure } from './lockfile.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const scratch: string[] = [];
afterAll(async () => {
  for (const dir of scratch) await rm(dir, { recursive: true, force: true });
});

/** npm with the repository's environment minus what `npm test` sets for its own run. */
function npm(args: string[], cwd: string, timeout = 180_000) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('npm_lifecycle') && k !== 'npm_package_json'));
  return run('npm', args, { cwd, env: { ...env, NO_UPDATE_NOTIFIER: '1' }, timeout, maxBuffer: 16 * 1024 * 1024 });
}

/** The first TypeScript block of the README's "In a test suite" section. */
async function readmeExample(): Promise<string> {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## In a test suite'));
  const block = /```ts\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('README has no ts block under "In a test suite"');
  return block[1]!;
}

describe('the installable package', () => {
  it('packs only the build, installs offline, runs the README example and the bin', async () => {
    // Build only when the sources changed since the last build (the same check as `npm start`).
    const stale = staleBecause(ROOT) as string | undefined;
    if (stale) await npm(['run', '--silent', 'build'], ROOT);

    const out = await mkdtemp(join(tmpdir(), 'emulator-pack-'));
    scratch.push(out);
    const packed = JSON.parse((await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', out], ROOT)).stdout)[0];
    const files: string[] = packed.files.map((f: { path: string }) => f.path);
    expect(files).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'dist/cli.js',
        'dist/cli-main.cjs',
        'dist/index.js',
        'dist/index.d.ts',
        'dist/ui/index.html',
        'dist/ui/dashboard.js',
        'dist/ui/dashboard.css',
      ]),
    );
    const foreign = files.filter((f) => !/^(package\.json|README\.md|LICENSE|CHANGELOG\.md|dist\/|docs\/)/.test(f));
    expect(foreign).toEqual([]);
    // The CLI's code cache is this machine's compile (src/cli-launcher.ts), never shipped.
    expect(files.filter((f) => f.startsWith('dist/.cache/'))).toEqual([]);
    expect(files.filter((f) => /(^|\/)(test|bench|\.ci|src|scripts|node_modules)\//.test(f) || /\.(yaml|env|log)$/.test(f))).toEqual([]);

    // A scratch app installs the tarball and vitest from the local cache only, through a lock cut from ours.
    const app = join(out, 'app');
    await mkdir(join(app, 'test'), { recursive: true });
    await rename(join(out, packed.filename), join(app, packed.filename));
    const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'));
    const lock = JSON.parse(await readFile(join(ROOT, 'package-lock.json'), 'utf8'));
    const vitest = lock.packages['node_modules/vitest'].version as string;
    const tarball = `file:${packed.filename}`;
    const manifest = { name: 'scratch-app', version: '1.0.0', private: true, type: 'module', dependencies: { 'platform-emulator': tarball, vitest } };
    const scratchLock = {
      name: 'scratch-app',
      version: '1.0.0',
      lockfileVersion: 3,
      requires: true,
      packages: {
        '': { name: 'scratch-app', version: '1.0.0', dependencies: manifest.dependencies },
        'node_modules/platform-emulator': {
          version: pkg.version,
          resolved: tarball,
          integrity: packed.integrity,
          dependencies: pkg.dependencies,
          bin: pkg.bin,
          engines: pkg.engines,
        },
        ...closure(lock, [...Object.keys(pkg.dependencies ?? {}), 'vitest']),
      },
    };
    await writeFile(join(app, 'package.json'), JSON.stringify(manifest, null, 2));
    await writeFile(join(app, 'package-lock.json'), JSON.stringify(scratchLock, null, 2));
    await npm(['ci', '--offline', '--no-audit', '--no-fund', '--loglevel=error'], app);

    await writeFile(join(app, 'test/example.test.ts'), await readmeExample());
    const tests = await run(join(app, 'node_modules/.bin/vitest'), ['run', '--reporter=verbose'], {
      cwd: app,
      timeout: 120_000,
      env: { ...process.env, CI: 'true' },
    });
    expect(tests.stdout).toMatch(/knows alice/);
    expect(tests.stdout).toMatch(/1 passed/);

    const help = await run('npx', ['--offline', 'platform-emulator', '--help'], { cwd: app, timeout: 60_000 });
    expect(help.stdout).toMatch(/^platform-emulator: /);
    expect(help.stdout).toMatch(/Usage:/);
    // The installed server serves the dashboard's shipped files.
    const server = spawn(process.execPath, [join(app, 'node_modules/platform-emulator/dist/cli.js'), '--port', '0', '--log-level', 'silent'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let text = '';
        server.stdout!.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          const found = /listening on (http:\/\/\S+)/.exec(text);
          if (found) resolve(found[1]!);
        });
        server.once('exit', (code) => reject(new Error(`the installed server exited with ${code}`)));
      });
      const page = await fetch(`${url}/_emulate/ui`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<title>Dashboard · Platform Emulator</title>');
      expect((await fetch(`${url}/_emulate/ui/dashboard.js`)).status).toBe(200);
      // A service's panel script, copied beside the bundle by the build (dist/ui/panels/<service>/).
      expect((await fetch(`${url}/_emulate/ui/panels/admin/users-panel.js`)).status).toBe(200);
    } finally {
      server.kill('SIGTERM');
    }

    const types = await readFile(join(app, 'node_modules/platform-emulator/dist/index.d.ts'), 'utf8');
    expect(types).toMatch(/startEmulator/);
  }, 300_000);
});
