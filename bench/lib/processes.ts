// Starts each server under test as its own process on a free loopback port, so that its CPU and memory can be
// read from /proc and nothing it does shares an event loop with the load generator.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { request } from './http.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ServerProcess {
  name: string;
  pid: number;
  url: string;
  /** The last lines the process wrote, for error messages. */
  output(): string;
  stop(): Promise<void>;
}

export interface ServerCommand {
  name: string;
  /** Arguments to node; `{port}` is replaced with the chosen port. */
  args: string[];
  /** Answers 2xx once the server serves. */
  healthPath: string;
  env?: NodeJS.ProcessEnv;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** The emulator as a user runs it: the built CLI, default log level. */
export function emulatorCommand(configFile: string, extra: string[] = [], entry = ['dist/cli.js']): ServerCommand {
  return { name: 'emulator', args: [...entry, '--config', configFile, '--port', '{port}', ...extra], healthPath: '/_emulate/health' };
}

/** The CLI from its TypeScript source (for the harness's own test, which must not depend on a fresh build). */
export const FROM_SOURCE = ['--import', 'tsx', 'src/cli.ts'];

/** A TypeScript server under bench/ (baseline, peers, modules), run through tsx. */
export function benchScript(name: string, script: string, healthPath: string, extra: string[] = []): ServerCommand {
  return { name, args: ['--import', 'tsx', script, '--port', '{port}', ...extra], healthPath };
}

/**
 * Output goes to a file, not a pipe: the bench's own event loop is busy driving load, and a pipe it drains
 * late would fill and stall the server's log writes, which is not what a user's terminal or file does.
 */
export function spawnNode(args: string[], env?: NodeJS.ProcessEnv): ChildProcess & { logFile: string } {
  const logFile = join(mkdtempSync(join(tmpdir(), 'bench-log-')), 'output.log');
  const fd = openSync(logFile, 'a');
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, PORT: '', PLATFORM_EMULATOR_CONFIG: '', ...env },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  return Object.assign(child, { logFile });
}

export async function startServer(command: ServerCommand, timeoutMs = 30_000): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawnNode(
    command.args.map((a) => a.replace('{port}', String(port))),
    command.env,
  );
  const tail = () => readFileSync(child.logFile, 'utf8').slice(-4000);
  const url = `http://127.0.0.1:${port}`;
  const server: ServerProcess = { name: command.name, pid: child.pid!, url, output: tail, stop: () => stopChild(child) };
  try {
    await waitHealthy(url + command.healthPath, child, timeoutMs);
  } catch (err) {
    await server.stop();
    throw new Error(`${command.name} did not start: ${(err as Error).message}\n${tail()}`);
  }
  return server;
}

/** Polls until a 2xx; a refused connection fails in well under a millisecond, so the wait adds almost nothing. */
export async function waitHealthy(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`exited with ${child.exitCode ?? child.signalCode}`);
    try {
      const reply = await request(url, { fresh: true });
      if (reply.status >= 200 && reply.status < 300) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 2));
  }
  throw new Error(`no healthy answer from ${url} within ${timeoutMs} ms`);
}

export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
