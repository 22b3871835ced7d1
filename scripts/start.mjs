// `npm start`: serve the built emulator, building first only when the build is missing or older than its
// sources. Rebuilding every time cost ~8 s per start. Plain JavaScript, so that it runs before anything is built.
// Arguments after `npm start --` go to the CLI: `npm start -- --port 5000`.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** What the build reads: a change to any of them makes the build stale. */
const INPUTS = ['src', 'scripts/bundle.ts', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json'];
/** What the build writes; the oldest of them must be newer than every input. */
const OUTPUTS = ['dist/cli.js', 'dist/cli-main.cjs', 'dist/index.js', 'dist/index.d.ts', 'dist/ui/index.html', 'dist/table-worker.js'];

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs; // a deleted file changes its folder's time
  for (const entry of readdirSync(path, { withFileTypes: true, recursive: true })) {
    const full = join(entry.parentPath, entry.name);
    latest = Math.max(latest, statSync(full).mtimeMs);
  }
  return latest;
}

/** Why the build must run, or undefined when dist/ is current. */
export function staleBecause(root = ROOT) {
  const missing = OUTPUTS.find((file) => !existsSync(join(root, file)));
  if (missing) return `${missing} is missing`;
  const built = Math.min(...OUTPUTS.map((file) => statSync(join(root, file)).mtimeMs));
  const changed = INPUTS.find((input) => newest(join(root, input)) > built);
  return changed ? `${changed} changed since the last build` : undefined;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  // Only a source checkout can be stale: an installed package has dist/ and no src/.
  const reason = existsSync(join(ROOT, 'src')) ? staleBecause() : undefined;
  if (reason) {
    console.error(`platform-emulator: building (${reason})…`);
    const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit', shell: process.platform === 'win32' });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  const child = spawn(process.execPath, [join(ROOT, 'dist/cli.js'), ...process.argv.slice(2)], { stdio: 'inherit' });
  // The emulator closes gracefully on SIGINT/SIGTERM; pass them on and leave with its code.
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
