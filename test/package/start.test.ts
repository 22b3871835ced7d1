// `npm start` rebuilds only when the build is missing or older than its sources (scripts/start.mjs).
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script without types
import { staleBecause } from '../../scripts/start.mjs';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function touch(root: string, file: string, seconds: number): Promise<void> {
  const path = join(root, file);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, '');
  await utimes(path, seconds, seconds);
}

describe('staleBecause', () => {
  it('says what is missing or changed, and nothing when the build is current', async () => {
    const root = await mkdtemp(join(tmpdir(), 'emulator-start-'));
    dirs.push(root);
    expect(staleBecause(root)).toBe('dist/cli.js is missing');
    for (const file of ['src/index.ts', 'src/ui/index.html', 'package.json']) await touch(root, file, 1000);
    for (const dir of ['src', 'src/ui']) await utimes(join(root, dir), 1000, 1000);
    await touch(root, 'dist/cli.js', 2000);
    // The CLI's bundle beside its front door (src/cli-launcher.ts): a build from before it had none.
    expect(staleBecause(root)).toBe('dist/cli-main.cjs is missing');
    for (const file of ['dist/cli-main.cjs', 'dist/index.js', 'dist/index.d.ts', 'dist/ui/index.html']) await touch(root, file, 2000);
    // The table worker (src/services/datasets/table/) is an output too: a build from before it had none.
    expect(staleBecause(root)).toBe('dist/table-worker.js is missing');
    await touch(root, 'dist/table-worker.js', 2000);
    expect(staleBecause(root)).toBeUndefined();
    await touch(root, 'src/ui/dashboard.js', 3000);
    expect(staleBecause(root)).toBe('src changed since the last build');
    await touch(root, 'dist/cli.js', 4000);
    expect(staleBecause(root)).toBe('src changed since the last build'); // the oldest output counts
  });
});
