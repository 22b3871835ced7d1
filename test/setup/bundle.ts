// Global setup: bundles the CLI and the programmatic API once, into a temporary folder, with the function that
// `npm run build` uses (scripts/bundle.ts). The CLI tests spawn this bundle: what users run, not the sources
// through tsx, and fresh from src/ without a separate build step.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { bundle } from '../../scripts/bundle.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Folder holding the bundled cli.js and index.js. */
    bundleDir: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), 'platform-emulator-bundle-'));
  // The bundle is an ES module; outside the repository nothing else says so.
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  await bundle(dir);
  project.provide('bundleDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
