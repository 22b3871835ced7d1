// Start-up: from spawning the built CLI to the first healthy answer, against a bare node:http server's start.
// The built CLI reads V8's code cache that its first start after a build writes (src/cli-launcher.ts): that first,
// compiling start is timed apart, then the samples are the starts a developer makes every test run.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { newResult, check } from '../lib/report.js';
import type { Scenario } from '../lib/scenario.js';
import { ROOT, freePort, spawnNode, stopChild, waitHealthy } from '../lib/processes.js';
import { writeSeed } from '../lib/fixtures.js';
import { stats, timeOnce } from '../lib/latency.js';

const SAMPLES = 10;

async function timeStart(args: (port: number) => string[], path: string): Promise<number> {
  const port = await freePort();
  let child: ReturnType<typeof spawnNode> | undefined;
  try {
    return await timeOnce(async () => {
      child = spawnNode(args(port));
      await waitHealthy(`http://127.0.0.1:${port}${path}`, child, 20_000);
    });
  } finally {
    if (child) await stopChild(child);
  }
}

export const startup: Scenario = {
  name: 'startup',
  title: 'start-up to a healthy answer (spawn of the built CLI to GET /_emulate/health 200)',
  async run() {
    const result = newResult(this.name, this.title);
    const seed = writeSeed();
    const emulator: number[] = [];
    const bare: number[] = [];
    const start = (port: number) => ['dist/cli.js', '--config', seed, '--port', String(port)];
    rmSync(join(ROOT, 'dist', '.cache'), { recursive: true, force: true });
    const first = await timeStart(start, '/_emulate/health');
    for (let i = 0; i < SAMPLES; i++) {
      emulator.push(await timeStart(start, '/_emulate/health'));
      bare.push(await timeStart((port) => ['-e', `require('http').createServer((q, s) => s.end('{}')).listen(${port}, '127.0.0.1')`], '/'));
    }
    const e = stats(emulator);
    const b = stats(bare);
    result.metrics.push({ name: 'start-up, median', value: e.p50Ms, unit: 'ms', baseline: b.p50Ms });
    result.metrics.push({ name: `start-up, slowest of ${SAMPLES}`, value: e.maxMs, unit: 'ms', baseline: b.maxMs });
    result.metrics.push({ name: 'first start after a build (no code cache yet)', value: first, unit: 'ms', baseline: b.p50Ms });
    check(result, 'start-up to healthy, median', e.p50Ms, 'max', 500, 'ms');
    result.notes.push('baseline: a bare node:http server started with node -e (the floor any Node service pays)');
    return result;
  },
};
