// A pipeline module moving records end to end (docs/streams.md, "Bench"): the @palantir/compute-module module of
// the pipeline test (test/fixtures/pipeline-modules/ts-pipeline.mjs), run by `run-module` in pipeline mode,
// reads BENCH_PIPELINE_RECORDS input records (default 20,000) 100 at a time through the stream proxy and writes
// each doubled to its output stream. Reported: records/s from the module's start to its exit (its start-up
// included), and the emulator's CPU per record read and written (from /proc, every thread counted).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { inParallel, postJson, request } from '../lib/http.js';
import { cpuMicros } from '../lib/proc.js';
import { check, newResult } from '../lib/report.js';
import type { Scenario } from '../lib/scenario.js';
import { mintTokens, stopAll } from '../lib/servers.js';
import { ROOT, emulatorCommand, spawnNode, startServer, type ServerProcess } from '../lib/processes.js';

const RECORDS = Number(process.env.BENCH_PIPELINE_RECORDS ?? 20_000);
const IN = 'ri.foundry.main.dataset.bench-in';
const OUT = 'ri.foundry.main.dataset.bench-out';
const APP = 'ri.foundry.main.deployed-app.bench-pipeline';
const MODULE = join(ROOT, 'test', 'fixtures', 'pipeline-modules', 'ts-pipeline.mjs');

export const streamPipeline: Scenario = {
  name: 'stream-pipeline',
  title: `a @palantir/compute-module pipeline module moving ${RECORDS} records from an input stream to an output stream`,
  async run() {
    const result = newResult(this.name, this.title);
    const dir = mkdtempSync(join(tmpdir(), 'bench-pipeline-'));
    let emulator: ServerProcess | undefined;
    try {
      const seed = join(dir, 'platform.yaml');
      writeFileSync(
        seed,
        stringify({
          platform: {
            streams: [
              { rid: IN, name: 'in', schema: { id: 'string', x: 'integer' } },
              { rid: OUT, name: 'out', schema: { id: 'string', twice: 'integer' } },
            ],
            compute_modules: {
              deployed_apps: [{ deployed_app_rid: APP, runtime_id: 'bench-pipeline', resources: { input: { rid: IN }, output: { rid: OUT } } }],
            },
          },
        }),
      );
      emulator = await startServer(emulatorCommand(seed));
      const [token] = await mintTokens(emulator, 1, ['api:streams-read', 'api:streams-write']);
      const headers = { authorization: `Bearer ${token!}` };
      const at = (rid: string) => `${emulator!.url}/api/v2/highScale/streams/datasets/${rid}/streams/master`;
      await inParallel(Math.ceil(RECORDS / 1000), 4, async (b) => {
        const records = Array.from({ length: Math.min(1000, RECORDS - b * 1000) }, (_, j) => ({ id: `r${b * 1000 + j}`, x: b * 1000 + j }));
        const res = await postJson(`${at(IN)}/publishRecords`, { records }, headers);
        if (res.status !== 204) throw new Error(`publishRecords answered ${res.status}`);
      });

      const resultFile = join(dir, 'result.json');
      const cpuBefore = cpuMicros(emulator.pid);
      const started = performance.now();
      const child = spawnNode(
        ['dist/cli.js', 'run-module', '--runtime', 'bench-pipeline', '--deployed-app', APP, '--url', emulator.url, '--', process.execPath, MODULE],
        {
          RESULT_FILE: resultFile,
          EXPECT_RECORDS: String(RECORDS),
          UNDECLARED_RID: IN,
          DEADLINE_MS: '600000',
        },
      );
      const code = await new Promise<number>((resolve) => child.once('exit', (c) => resolve(c ?? 1)));
      const seconds = (performance.now() - started) / 1000;
      const cpu = cpuMicros(emulator.pid) - cpuBefore;
      if (code !== 0) throw new Error(`the module exited ${code}: ${readFileSync(child.logFile, 'utf8').slice(-2000)}`);
      const moved = (JSON.parse(readFileSync(resultFile, 'utf8')) as { moved: number }).moved;
      const end = (await request(`${at(OUT)}/getEndOffsets`, { headers })).json<Record<string, number>>()['0'];
      if (moved !== RECORDS || end !== RECORDS) throw new Error(`moved ${moved}, output end offset ${end}, expected ${RECORDS}`);

      result.metrics.push({ name: 'records moved end to end per second (module start-up included)', value: RECORDS / seconds, unit: 'records/s' });
      result.metrics.push({ name: 'emulator CPU per record read and written', value: cpu / RECORDS, unit: 'µs' });
      result.notes.push('a shared, noisy 2-core machine: the module, run-module and the emulator share the cores');
      check(result, 'records moved per second', RECORDS / seconds, 'min', 2_000, 'records/s');
    } finally {
      await stopAll([emulator]);
      rmSync(dir, { recursive: true, force: true });
    }
    return result;
  },
};
