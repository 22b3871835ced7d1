// A live emulator with the real fixture module attached through `run-module`, for the end-to-end tests.
import type { ChildProcess } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startEmulator, type Emulator } from '../../src/index.js';
import { collect, spawnCli, type CliResult } from '../helpers/cli.js';

export const APP_RID = 'ri.foundry.main.deployed-app.adder';
export const RUNTIME_ID = 'adder-runtime';
export const MUX = '/analytics-backend-multiplexer/api/module-group-multiplexer';

export interface LiveModule {
  emulator: Emulator;
  token: string;
  child: ChildProcess;
  exited: Promise<CliResult>;
  /** Requests seen by the server, as `METHOD path`. */
  seen: string[];
  /** Resolves when a request matching `test` has been answered. */
  answered(test: (method: string, url: string) => boolean): Promise<void>;
  stop(): Promise<CliResult>;
}

export async function startLiveModule(pollTimeoutMs = 500): Promise<LiveModule> {
  const emulator = await startEmulator({
    seed: {
      platform: {
        compute_modules: {
          poll_timeout_ms: pollTimeoutMs,
          execute_timeout_ms: 20_000,
          runtimes: [{ runtime_id: RUNTIME_ID }],
          deployed_apps: [{ deployed_app_rid: APP_RID, runtime_id: RUNTIME_ID }],
        },
      },
    },
  });
  const seen: string[] = [];
  const watchers = new Set<(method: string, url: string, res: ServerResponse) => void>();
  emulator.server.app.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    seen.push(`${req.method} ${req.url}`);
    for (const watcher of watchers) watcher(req.method!, req.url!, res);
  });
  const answered = (test: (method: string, url: string) => boolean) =>
    new Promise<void>((resolve) => {
      const watcher = (method: string, url: string, res: ServerResponse) => {
        if (!test(method, url)) return;
        watchers.delete(watcher);
        res.once('finish', () => setImmediate(resolve));
      };
      watchers.add(watcher);
    });

  const mint = await fetch(`${emulator.url}/_emulate/platform/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', scopes: [] }),
  });
  const token = ((await mint.json()) as { access_token: string }).access_token;

  const schemasPosted = answered((method, url) => method === 'POST' && url.endsWith(`/${RUNTIME_ID}/schemas`));
  const child = spawnCli(['run-module', '--runtime', RUNTIME_ID, '--url', emulator.url, '--', process.execPath, 'test/fixtures/compute-module/adder.mjs']);
  const exited = collect(child, 120_000);
  await Promise.race([schemasPosted, exited.then((r) => Promise.reject(new Error(`module exited early: ${JSON.stringify(r)}`)))]);

  return {
    emulator,
    token,
    child,
    exited,
    seen,
    answered,
    async stop() {
      child.kill('SIGTERM');
      const result = await exited;
      await emulator.close();
      return result;
    },
  };
}
