// Bundles the CLI (dist/cli.js) and the programmatic API (dist/index.js) with esbuild, each with every
// dependency inside, sharing one chunk. Why: start-up was dominated by Node finding, reading and compiling ~530
// module files one by one (TypeBox, ajv, yaml, Fastify, pino); one file is a third of the CPU
// (docs/performance.md). tsc still writes the .d.ts files (tsconfig.build.json); this writes every .js in dist/.
// `npm run build` runs it; the tests bundle into a temporary folder with the same function.
import { build } from 'esbuild';
import { cpSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const ENTRY_POINTS = ['src/cli.ts', 'src/index.ts'];
/** Worker threads' scripts, written beside the entry points (the datasets table worker: docs/datasets.md). */
const WORKER_ENTRY_POINTS = [{ in: 'src/services/datasets/table/table-worker.ts', out: 'table-worker' }];

// Fastify, pino and ajv are CommonJS and require Node's built-ins; an ES module has no `require` of its own.
const REQUIRE_SHIM = "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

export async function bundle(outdir: string, options: { sourcemap?: boolean } = {}): Promise<void> {
  removeOldScripts(outdir);
  await build({
    absWorkingDir: ROOT,
    entryPoints: [...ENTRY_POINTS.map((entry) => ({ in: entry, out: entry.replace(/^src\//, '').replace(/\.ts$/, '') })), ...WORKER_ENTRY_POINTS],
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

/** Earlier builds' scripts (tsc's per-file output, chunks under old hashes); the .d.ts files stay. */
function removeOldScripts(dir: string): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true, recursive: true });
  } catch {
    return; // no folder yet
  }
  for (const entry of entries) {
    if (entry.isFile() && /\.js(\.map)?$/.test(entry.name)) rmSync(join(entry.parentPath, entry.name));
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await bundle(join(ROOT, 'dist'), { sourcemap: true });
}
