#!/usr/bin/env node
// The built CLI's front door (dist/cli.js). It runs the bundled CLI (dist/cli-main.cjs) through V8's code cache:
// compiling that 5 MB bundle and the functions start-up calls was about a quarter of a start's CPU
// (docs/performance.md, "Start-up"), and Node 20 caches compiled code only for scripts it is handed, not for ES
// modules. The first start after a build compiles as usual and, once listening, saves what V8 compiled beside the
// bundle (dist/.cache/); later starts read it back. The cache is a speed-up only: a missing, unwritable or stale
// cache (another Node, other V8 flags: V8 refuses it) means an ordinary compile, and
// PLATFORM_EMULATOR_CODE_CACHE=off skips it. From the sources (tsx src/cli.ts) none of this runs.
import { isAscii } from 'node:buffer';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { CLI_READY_EVENT } from './cli-ready.js';

/** The bundle's content hash, written in by the build (scripts/bundle.ts): a new build never reads an old cache. */
declare const CLI_BUNDLE_KEY: string;

const here = dirname(fileURLToPath(import.meta.url));
const bundleFile = join(here, 'cli-main.cjs');
const cacheDir = join(here, '.cache');
const cacheFile = join(cacheDir, `cli-${CLI_BUNDLE_KEY}-${process.version}-${process.arch}${flagsKey()}.v8`);
const useCache = process.env.PLATFORM_EMULATOR_CODE_CACHE !== 'off';

/**
 * V8 refuses a cache made under other flags; starts with flags (`node --inspect dist/cli.js`, NODE_OPTIONS) get a
 * cache of their own, so that starts with and without them do not overwrite each other's. A short FNV-1a hash:
 * loading node:crypto for it would cost more than it saves.
 */
function flagsKey(): string {
  const flags = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ').trim();
  if (flags === '') return '';
  let hash = 0x811c9dc5;
  for (let i = 0; i < flags.length; i++) hash = Math.imul(hash ^ flags.charCodeAt(i), 0x01000193);
  return `-f${(hash >>> 0).toString(16).padStart(8, '0')}`;
}

function readCache(): Buffer | undefined {
  if (!useCache) return undefined;
  try {
    return readFileSync(cacheFile);
  } catch {
    return undefined; // first start after a build
  }
}

/** Written whole under another name, then renamed: starts running side by side never read half a file. */
function writeCache(script: vm.Script): void {
  const partial = `${cacheFile}.${process.pid}`;
  try {
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(partial, script.createCachedData());
    renameSync(partial, cacheFile);
  } catch {
    // a read-only install (every start compiles, as without the cache), or a full disk: no partial file stays
    try {
      rmSync(partial, { force: true });
    } catch {
      // nothing more to do
    }
  }
}

/**
 * The bundle's text. The build writes it wrapped as Node wraps a CommonJS module (so V8 gets the text as read) and
 * in ASCII only (scripts/bundle.ts), which Latin-1 decodes to the same string several times faster than UTF-8 and
 * into a one-byte string; a bundle with other characters (built some other way) is decoded as UTF-8.
 */
function readSource(): string {
  const bytes = readFileSync(bundleFile);
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

// The bundle is CommonJS (esbuild writes it so) run as Node runs a CommonJS file. Everything but Node's built-ins
// is inside it, its lazy parts (the PostgreSQL store, parquet-wasm) included, so it holds no `import()` of its own;
// should one be added, it goes through Node's own loader where this Node offers that (20.12 and later).
const DEFAULT_LOADER = (vm.constants as Partial<typeof vm.constants> | undefined)?.USE_MAIN_CONTEXT_DEFAULT_LOADER;
const cachedData = readCache();
const script = new vm.Script(readSource(), {
  filename: bundleFile,
  cachedData,
  ...(DEFAULT_LOADER === undefined ? {} : { importModuleDynamically: DEFAULT_LOADER }),
});
if (useCache && (!cachedData || script.cachedDataRejected)) {
  // Once listening, V8 has compiled what a start needs: those functions go into the cache with the top level.
  process.once(CLI_READY_EVENT, () => writeCache(script));
}
const cjsModule = { exports: {} };
(script.runInThisContext() as (...args: unknown[]) => void)(cjsModule.exports, createRequire(bundleFile), cjsModule, bundleFile, here);
