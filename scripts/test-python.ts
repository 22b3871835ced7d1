// `npm test`'s last step (and `npm run test:python`): the Python conformance tests (test/clients/python, pytest)
// with the real packages pinned in test/clients/python/requirements.txt, installed in .venv/ of the checkout.
// The emulator they start is the CLI bundled fresh from src/ into a temporary folder (as the vitest setup does).
// Without the virtual environment: outside CI, say how to make it and skip (exit 0); under CI=true, fail.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundle } from './bundle.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TESTS = join(ROOT, 'test', 'clients', 'python');
const PYTHON = join(ROOT, '.venv', 'bin', 'python');
const HOW = ['make it once with:', '  python3 -m venv .venv', '  .venv/bin/pip install -r test/clients/python/requirements.txt'].join('\n');
// foundry-cli's `pltr` (test_pltr_cli.py): its own environment, since pltr-cli in .venv/ installs a package of the
// same name. Without it those tests skip with the way to make it, except under CI=true, where they fail.
const FOUNDRY_CLI_PLTR = join(ROOT, '.venv-foundry-cli', 'bin', 'pltr');

function missing(reason: string): number {
  if (process.env.CI === 'true') {
    console.error(`python conformance tests: FAILED: ${reason} (CI=true requires them; .ci/run makes it)\n${HOW}`);
    return 1;
  }
  console.log(`python conformance tests: SKIPPED: ${reason}\n${HOW}`);
  return 0;
}

async function main(): Promise<number> {
  if (!existsSync(PYTHON)) return missing('no Python virtual environment at .venv/');
  const probe = spawnSync(PYTHON, ['-c', 'import compute_modules, foundry_sdk, pytest'], { stdio: 'ignore' });
  if (probe.status !== 0) return missing('.venv/ lacks foundry-compute-modules, foundry-platform-sdk or pytest');

  const dir = mkdtempSync(join(tmpdir(), 'platform-emulator-python-'));
  try {
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    await bundle(dir);
    const run = spawnSync(PYTHON, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', ...process.argv.slice(2)], {
      cwd: TESTS,
      stdio: 'inherit',
      env: { ...process.env, FOUNDRY_CLI_PLTR, PLATFORM_EMULATOR_CLI: `${JSON.stringify(process.execPath)} ${JSON.stringify(join(dir, 'cli.js'))}` },
    });
    if (run.status !== 0) console.error(`python conformance tests: FAILED (pytest exit ${run.status ?? run.signal})`);
    return run.status ?? 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
