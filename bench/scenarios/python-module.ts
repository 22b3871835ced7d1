// A real Python module (foundry-compute-modules, test/clients/python/modules/app.py) run through `run-module`
// over the HTTPS in-pod runtime listener: the sync-execute round trip, one at a time (p50, p99), against the
// same round trip through the TypeScript runtime SDK's module on the public port in the same run (the baseline);
// then the polls per second of an idle Python module (the SDK polls again at once after every answer, so only
// the server's long-poll hold keeps this low; target under 5), counted from the server's per-request log lines.
// Skipped with the reason when the Python virtual environment (.venv/, scripts/test-python.ts) is missing.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { postJson } from '../lib/http.js';
import { sampleSequentially } from '../lib/latency.js';
import { ROOT, freePort, spawnNode, stopChild, waitHealthy } from '../lib/processes.js';
import { writeSeed } from '../lib/fixtures.js';
import { check, newResult } from '../lib/report.js';
import type { Scenario } from '../lib/scenario.js';
import { mintTokens, startEmulator } from '../lib/servers.js';
import { settings } from '../lib/settings.js';
import { EXECUTE_PATH } from './job-round-trip.js';

const PYTHON = join(ROOT, '.venv', 'bin', 'python');
const MODULE = join(ROOT, 'test', 'clients', 'python', 'modules', 'app.py');
const PY_APP = 'ri.foundry.main.deployed-app.bench-python';
const TS_APP = 'ri.foundry.main.deployed-app.bench-typescript';
const IDLE_SECONDS = 10;
const sleep = (ms: number): Promise<false> => new Promise((resolve) => setTimeout(() => resolve(false), ms));

type Child = ReturnType<typeof spawnNode>;
const runModule = (url: string, runtime: string, app: string, command: string[]): Child =>
  spawnNode(['dist/cli.js', 'run-module', '--runtime', runtime, '--deployed-app', app, '--url', url, '--', ...command]);

async function untilAnswered(task: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await task())) {
    if (Date.now() > deadline) throw new Error(`no answer from ${what} within ${timeoutMs} ms`);
  }
}

export const pythonModule: Scenario = {
  name: 'python-module',
  title: 'job round trip through a real Python module (foundry-compute-modules) over the in-pod HTTPS runtime',
  async run() {
    const result = newResult(this.name, this.title);
    if (!existsSync(PYTHON)) return { ...result, skipped: 'no .venv/ with the Python packages (see scripts/test-python.ts for how to make it)' };

    // 1. Latency, at the default log level.
    const emulator = await startEmulator();
    const modules: Child[] = [];
    try {
      modules.push(runModule(emulator.url, 'bench-python', PY_APP, [PYTHON, MODULE]));
      modules.push(runModule(emulator.url, 'bench-typescript', TS_APP, [process.execPath, '--import', 'tsx', 'bench/module/echo-module.ts']));
      const [token] = await mintTokens(emulator, 1, []);
      const url = `${emulator.url}${EXECUTE_PATH}`;
      const auth = { authorization: `Bearer ${token}` };
      let failures = 0;
      let n = 0;
      const python = async () => {
        const text = `job ${n++}`;
        const reply = await postJson(url, { deployedAppRid: PY_APP, queryType: 'echo', query: { text } }, auth);
        if (reply.status !== 200 || reply.text() !== JSON.stringify(text)) failures++;
      };
      const typescript = async () => {
        const query = { n: n++ };
        const reply = await postJson(url, { deployedAppRid: TS_APP, queryType: 'echo', query }, auth);
        if (reply.status !== 200 || reply.json<{ n: number }>().n !== query.n) failures++;
      };
      await untilAnswered(
        async () => (await postJson(url, { deployedAppRid: PY_APP, queryType: 'echo', query: { text: 'up' } }, auth)).status === 200,
        'the Python module',
      );
      await untilAnswered(
        async () => (await postJson(url, { deployedAppRid: TS_APP, queryType: 'echo', query: { n: 0 } }, auth)).status === 200,
        'the TypeScript module',
      );
      await sampleSequentially(100, python); // warm-up
      await sampleSequentially(100, typescript);
      failures = 0;
      const samples = Math.min(settings.samples, 1000);
      const py = await sampleSequentially(samples, python);
      const ts = await sampleSequentially(samples, typescript);
      result.metrics.push(
        { name: 'Python module job round trip, p50', value: py.p50Ms, unit: 'ms', baseline: ts.p50Ms },
        { name: 'Python module job round trip, p99', value: py.p99Ms, unit: 'ms', baseline: ts.p99Ms },
      );
      check(result, 'Python round trip p50', py.p50Ms, 'max', 25, 'ms');
      check(result, 'Python round trip p99', py.p99Ms, 'max', 100, 'ms');
      check(result, 'failed or wrong answers', failures, 'max', 0, 'jobs');
    } finally {
      for (const child of modules) await stopChild(child);
      await emulator.stop();
    }

    // 2. Idle polls, counted from the request log of a server at debug level (one line per request).
    const port = await freePort();
    const logged = spawnNode(['dist/cli.js', '--config', writeSeed(), '--port', String(port), '--log-level', 'debug']);
    let idle: Child | undefined;
    try {
      await waitHealthy(`http://127.0.0.1:${port}/_emulate/health`, logged, 30_000);
      idle = runModule(`http://127.0.0.1:${port}`, 'bench-python-idle', PY_APP, [PYTHON, MODULE]);
      const polls = () =>
        readFileSync(logged.logFile, 'utf8')
          .split('\n')
          .filter((l) => l.includes('"msg":"incoming request"') && l.includes('/runtimes/bench-python-idle/job"')).length;
      await untilAnswered(async () => polls() > 0 || (await sleep(100)), "the idle module's first poll");
      const before = polls();
      await sleep(IDLE_SECONDS * 1000);
      const perSecond = (polls() - before) / IDLE_SECONDS;
      result.metrics.push({ name: `idle module polls per second (over ${IDLE_SECONDS} s)`, value: perSecond, unit: '/s' });
      check(result, 'idle polls per second', perSecond, 'max', 5, '/s');
    } finally {
      if (idle) await stopChild(idle);
      await stopChild(logged);
    }
    result.notes.push(
      'baseline: the same sync execute through the TypeScript runtime SDK (@palantir/compute-module) module on the public port, same server, same run',
    );
    return result;
  },
};
