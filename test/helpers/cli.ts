// Runs the real command-line front as a child process: the bundled dist/cli.js as `npm run build` makes it,
// built from the current sources by the global setup (test/setup/bundle.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BUNDLE_DIR = inject('bundleDir');
const CLI = [join(BUNDLE_DIR, 'cli.js')];

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function spawnCli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): ChildProcess {
  return spawn(process.execPath, [...CLI, ...args], {
    cwd: ROOT,
    env: { ...process.env, PORT: '', PLATFORM_EMULATOR_CONFIG: '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Runs to completion, killing it after `timeoutMs`. */
export function runCli(args: string[], options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<CliResult> {
  const child = spawnCli(args, options);
  return collect(child, options.timeoutMs ?? 20_000);
}

export function collect(child: ChildProcess, timeoutMs = 20_000): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** Resolves with the first stdout line matching `pattern`. */
export function waitForLine(child: ChildProcess, pattern: RegExp, timeoutMs = 20_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => reject(new Error(`no line matching ${pattern} within ${timeoutMs} ms; saw: ${buffer}`)), timeoutMs);
    child.stdout!.on('data', (d) => {
      buffer += d;
      const line = buffer.split('\n').find((l) => pattern.test(l));
      if (line) {
        clearTimeout(timer);
        resolve(line);
      }
    });
    child.on('exit', () => reject(new Error(`exited before printing ${pattern}; saw: ${buffer}`)));
  });
}
