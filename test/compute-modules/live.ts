// A live emulator with the real fixture module attached through `run-module`, for the end-to-end tests.
import type { ChildProcess } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startEmulator, type Emulator } from '../../src/index.js';
import { testStoreSpec } from '../helpers/store.js';
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

/** `atRunTime`: no runtime in the seed; run-module creates it and its deployed app, as a user's first run does. */
export async function startLiveModule(pollTimeoutMs = 500, { atRunTime = false } = {}): Promise<LiveModule> {
  const seeded = atRunTime ? {} : { runtimes: [{ runtime_id: RUNTIME_ID }], deployed_apps: [{ deployed_app_rid: APP_RID, runtime_id: RUNTIME_ID }] };
  const emulator = await startEmulator({
    store: testStoreSpec(),
    seed: { platform: { compute_modules: { poll_timeout_ms: pollTimeoutMs, execute_timeout_ms: 20_000, ...seeded } } },
  });
  const seen: string[] = [];
  // Every answered request is remembered, so that a wait that starts late still sees an earlier answer.
  const done: Array<[string, string]> = [];
  const watchers = new Set<() => void>();
  emulator.server.app.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    seen.push(`${req.method} ${req.url}`);
    res.once('finish', () => {
      done.push([req.method!, req.url!]);
      setImmediate(() => watchers.forEach((watcher) => watcher()));
    });
  });
  const answered = (test: (method: string, url: string) => boolean) =>
    new Promise<void>((resolve) => {
      const watcher = () => {
        if (!done.some(([method, url]) => test(method, url))) return;
        watchers.delete(watcher);
        resolve();
      };
      watchers.add(watcher);
      watcher();
    });

  const mint = await fetch(`${emulator.url}/_emulate/platform/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', scopes: [] }),
  });
  const token = ((await mint.json()) as { access_token: string }).access_token;

  const schemasPosted = answered((method, url) => method === 'POST' && url.endsWith(`/${RUNTIME_ID}/schemas`));
  const app = atRunTime ? ['--deployed-app', APP_RID] : [];
  const child = spawnCli([
    'run-module',
    '--runtime',
    RUNTIME_ID,
    ...app,
    '--url',
    emulator.url,
    '--',
    process.execPath,
    'test/fixtures/compute-module/adder.mjs',
  ]);
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
