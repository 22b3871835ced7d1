// Bundles the programmatic API (dist/index.js, ES modules) and the CLI (dist/cli-main.cjs, one CommonJS file
// started by the small dist/cli.js through V8's code cache: src/cli-launcher.ts) with esbuild, each with every
// dependency inside. Why: start-up was dominated by Node finding, reading and compiling ~530 module files one by
// one (TypeBox, ajv, yaml, Fastify, pino); one file is a third of the CPU, and a cached compile of it less again
// (docs/performance.md). tsc still writes the .d.ts files (tsconfig.build.json); this writes every script in dist/.
// `npm run build` runs it; the tests bundle into a temporary folder with the same function.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const ENTRY_POINTS = ['src/cli.ts', 'src/index.ts'];
/** The CLI's CommonJS bundle, and its front door (a CommonJS file is what V8 can cache compiled code for). */
const CLI_BUNDLE = 'cli-main.cjs';
const CLI_LAUNCHER = 'src/cli-launcher.ts';
/** Worker threads' scripts, written beside the entry points (the datasets table worker: docs/datasets.md). */
const WORKER_ENTRY_POINTS = [{ in: 'src/services/datasets/table/table-worker.ts', out: 'table-worker' }];

// Fastify, pino and ajv are CommonJS and require Node's built-ins; an ES module has no `require` of its own.
const REQUIRE_SHIM = "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

export async function bundle(outdir: string, options: { sourcemap?: boolean } = {}): Promise<void> {
  removeOldScripts(outdir);
  const [cli, ...library] = ENTRY_POINTS;
  await build({
    absWorkingDir: ROOT,
    entryPoints: [...library.map((entry) => ({ in: entry, out: entry.replace(/^src\//, '').replace(/\.ts$/, '') })), ...WORKER_ENTRY_POINTS],
    outdir,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    banner: { js: REQUIRE_SHIM },
    // Not minified: stack traces stay readable, and minifying saved no measurable start-up time.
    sourcemap: options.sourcemap ? 'linked' : false,
    sourcesContent: false,
    logLevel: 'warning',
  });
  await bundleCli(cli!, outdir, options);
  // The dashboard's static files, as they are: the server reads them from beside the bundle (dist/ui).
  cpSync(join(ROOT, 'src/ui'), join(outdir, 'ui'), { recursive: true });
  // Each service's dashboard panels (its folder's ui/), under the service's name (src/services/control/routes/dashboard.ts).
  const services = join(ROOT, 'src/services');
  for (const service of readdirSync(services, { withFileTypes: true })) {
    const ui = join(services, service.name, 'ui');
    if (service.isDirectory() && existsSync(ui)) cpSync(ui, join(outdir, 'ui', 'panels', service.name), { recursive: true });
  }
  // parquet-wasm's WebAssembly file, read at the first Parquet table read from beside the bundle
  // (src/services/datasets/table/parquet-wasm.ts); its JavaScript is bundled like any dependency.
  cpSync(createRequire(import.meta.url).resolve('parquet-wasm/esm/parquet_wasm_bg.wasm'), join(outdir, 'parquet_wasm_bg.wasm'));
}

/**
 * The CLI as one CommonJS file (`import.meta.url` becomes the file's URL; `import()` of the PostgreSQL store and
 * parquet-wasm stays lazy inside it), then its front door, told the file's hash so that a cache of an older build
 * is never read.
 */
async function bundleCli(entry: string, outdir: string, options: { sourcemap?: boolean }): Promise<void> {
  const outfile = join(outdir, CLI_BUNDLE);
  await build({
    absWorkingDir: ROOT,
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    define: { 'import.meta.url': '__importMetaUrl' },
    // Written already wrapped as Node wraps a CommonJS module: the front door hands V8 the file's text as read,
    // with no copy of 5 MB to add the wrapper. Required as a module, the file is an uncalled function: nothing runs.
    banner: { js: `${CJS_WRAPPER_OPEN}const __importMetaUrl = require('node:url').pathToFileURL(__filename).href;` },
    footer: { js: '})' },
    sourcemap: options.sourcemap ? 'linked' : false,
    sourcesContent: false,
    logLevel: 'warning',
  });
  writeFileSync(outfile, asciiOnly(readFileSync(outfile, 'utf8')));
  const key = createHash('sha256').update(readFileSync(outfile)).digest('hex').slice(0, 16);
  await build({
    absWorkingDir: ROOT,
    entryPoints: [{ in: CLI_LAUNCHER, out: 'cli' }],
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    define: { CLI_BUNDLE_KEY: JSON.stringify(key) },
    logLevel: 'warning',
  });
}

const CJS_WRAPPER_OPEN = '(function (exports, require, module, __filename, __dirname) {';

/**
 * Every character outside ASCII written as a \u escape. esbuild escapes them in strings but leaves comments,
 * regular expressions and template literals as they are; a file of ASCII only becomes a one-byte string in V8
 * (half the memory, and the front door decodes it as Latin-1, much faster than UTF-8). The escapes mean the same
 * in all of those places (template literals' cooked text; no code here reads a template's raw text).
 */
function asciiOnly(text: string): string {
  return text.replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Earlier builds' scripts (tsc's per-file output, chunks under old hashes); the .d.ts files stay. */
function removeOldScripts(dir: string): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true, recursive: true });
  } catch {
    return; // no folder yet
  }
  for (const entry of entries) {
    if (entry.isFile() && /\.c?js(\.map)?$/.test(entry.name)) rmSync(join(entry.parentPath, entry.name));
  }
  rmSync(join(dir, '.cache'), { recursive: true, force: true }); // compiled code of those scripts
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await bundle(join(ROOT, 'dist'), { sourcemap: true });
}
