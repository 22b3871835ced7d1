// parquet-wasm (Rust's parquet and arrow crates compiled to WebAssembly; chosen by bench: docs/datasets.md,
// "Parquet"), loaded at the first Parquet read, or ahead of it when a commit adds a Parquet file (parquet-warmup.ts):
// compiling its 6.5 MB module costs time and memory that a process reading no Parquet should not pay. Its ES module build is bundled; the .wasm file is read from beside
// the running script (the bundle: scripts/bundle.ts copies it into dist/) or from the installed package (tsx
// source runs, and any bundle without the copy).
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

import type * as ParquetWasmModule from 'parquet-wasm/esm';

export type ParquetWasm = typeof ParquetWasmModule;

/** The WebAssembly file's name, as the package and the bundle both call it. */
export const PARQUET_WASM_FILE = 'parquet_wasm_bg.wasm';

function wasmPath(): string {
  const beside = fileURLToPath(new URL(`./${PARQUET_WASM_FILE}`, import.meta.url));
  if (existsSync(beside)) return beside;
  return createRequire(import.meta.url).resolve(`parquet-wasm/esm/${PARQUET_WASM_FILE}`);
}

let compiling: Promise<WebAssembly.Module> | undefined;

/**
 * The module compiled once per process (V8 compiles it on background threads): the main thread hands it to each
 * table worker with a Parquet read's job (a compiled module can be posted, and its code is then shared), so a
 * worker only instantiates it (docs/datasets.md, "Table reads off the event loop").
 */
export function parquetModule(): Promise<WebAssembly.Module> {
  // Read without blocking the event loop (6.5 MB), then compiled off it.
  compiling ??= Promise.resolve()
    .then(() => readFile(wasmPath()))
    .then((bytes) => WebAssembly.compile(bytes));
  compiling.catch(() => (compiling = undefined));
  return compiling;
}

/** In a worker: the module the main thread compiled, used by the first load instead of compiling it again. */
let handed: WebAssembly.Module | undefined;
export function useParquetModule(module: WebAssembly.Module): void {
  handed ??= module;
}

let loading: Promise<ParquetWasm> | undefined;

/** The module, instantiated once per thread (each worker thread has its own WebAssembly instance and memory). */
export function parquetWasm(): Promise<ParquetWasm> {
  loading ??= (async () => {
    const module = await import('parquet-wasm/esm');
    await module.default({ module_or_path: handed ?? (await parquetModule()) });
    return module;
  })();
  // A failed load is tried again by the next read (a missing file is an install problem the error names).
  loading.catch(() => (loading = undefined));
  return loading;
}
