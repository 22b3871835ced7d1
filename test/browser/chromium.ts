// Shared by every browser test: where Debian's Chromium is, how to launch it, and what to do without it.
// Without Chromium a browser suite is skipped, with the reason in its name and on stderr, so that `npm test`
// passes on a machine that lacks it; under CI=true it fails instead, because CI must run it.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Why browser tests cannot run here, or undefined when they can. */
export const chromiumMissing: string | undefined = existsSync(CHROMIUM)
  ? undefined
  : `no Chromium at ${CHROMIUM} (install Debian's chromium package, or set CHROMIUM_PATH)`;

/** `describe` for a suite that needs the browser: skipped with its reason, or failed under CI=true. */
export function describeInBrowser(name: string, body: () => void): void {
  if (!chromiumMissing) {
    describe(name, body);
    return;
  }
  if (process.env.CI === 'true') {
    describe(name, () => {
      it('runs in Chromium (required under CI=true)', () => {
        throw new Error(`browser tests are required under CI=true, but there is ${chromiumMissing}`);
      });
    });
    return;
  }
  // Skipped for a stated reason: this machine has no Chromium (outside CI only; the reason is printed and in the title).
  console.warn(`skipping browser suite "${name}": ${chromiumMissing}`);
  describe.skip(`${name} [skipped: ${chromiumMissing}]`, body);
}

/** Screenshots and other artefacts go here (git-ignored). */
export async function artefactDir(): Promise<string> {
  await mkdir('test-results', { recursive: true });
  return 'test-results';
}

const profiles: string[] = [];

export interface LaunchOptions {
  javaScriptEnabled?: boolean;
  colorScheme?: 'light' | 'dark';
  viewport?: { width: number; height: number };
}

/** A headless Chromium with a throw-away profile; `closeBrowsers()` removes the profiles. */
export async function launch(options: LaunchOptions = {}): Promise<BrowserContext> {
  const profile = await mkdtemp(join(tmpdir(), 'emulator-chromium-'));
  profiles.push(profile);
  return chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    colorScheme: options.colorScheme ?? 'light',
    viewport: options.viewport ?? { width: 900, height: 760 },
  });
}

export async function removeProfiles(): Promise<void> {
  for (const dir of profiles.splice(0)) await rm(dir, { recursive: true, force: true });
}
