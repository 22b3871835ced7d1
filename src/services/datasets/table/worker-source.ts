// Where the table worker's script is (docs/datasets.md, "Table reads off the event loop"): the built file beside
// the bundle, or, from the sources, the TypeScript file run through tsx's loader.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The worker's script: the built file beside the bundle, or the TypeScript source run through tsx. */
export function workerSource(): { script: string | URL; eval: boolean } | undefined {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    const source = new URL('./table-worker.ts', here).href;
    // require.resolve finds the CommonJS build of tsx's API; its ES module build sits beside it.
    const tsx = pathToFileURL(
      createRequire(here)
        .resolve('tsx/esm/api')
        .replace(/\.cjs$/, '.mjs'),
    ).href;
    return { script: `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(source)}); });`, eval: true };
  }
  const built = new URL('./table-worker.js', here);
  return existsSync(fileURLToPath(built)) ? { script: built, eval: false } : undefined;
}
