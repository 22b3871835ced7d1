// Ontology objects at 100,000 (docs/contracts.md §9): loadObjects with a three-clause filter and a primary-key
// fetchOne (the typed client's request: a filter on the key, page size 1), each against the raw baseline
// (bench/baseline/ontology.ts) in interleaved rounds; start-up and reset with the 100,000 objects seeded, and
// the memory they take (RSS with them minus RSS with none, per object).
import { postJson, request } from '../lib/http.js';
import { interleave } from '../lib/compare.js';
import { stats, timeOnce } from '../lib/latency.js';
import { rssBytes } from '../lib/proc.js';
import { check, newResult, no5xxCheck } from '../lib/report.js';
import type { Scenario } from '../lib/scenario.js';
import { benchScript, emulatorCommand, freePort, spawnNode, startServer, stopChild, waitHealthy, type ServerProcess } from '../lib/processes.js';
import { stopAll } from '../lib/servers.js';
import { settings } from '../lib/settings.js';
import { loadObjectsBody, ONTOLOGY, PAGE_SIZE, THREE_CLAUSE_WHERE, writeOntologySeed } from '../lib/ontology-seed.js';

const OBJECTS = Number(process.env.BENCH_ONTOLOGY_OBJECTS ?? 100_000);
const PATH = `/api/v2/ontologies/${ONTOLOGY}/objectSets/loadObjects`;
const STARTS = 3;
const RESETS = 10;
const MB = 1024 * 1024;

async function token(server: ServerProcess): Promise<string> {
  const reply = await postJson(`${server.url}/_emulate/platform/tokens`, { username: 'bench', scopes: ['api:ontologies-read'] });
  if (reply.status !== 200) throw new Error(`mint: ${reply.status} ${reply.text()}`);
  return reply.json<{ access_token: string }>().access_token;
}

async function timeStart(seedFile: string): Promise<number> {
  const port = await freePort();
  let child: ReturnType<typeof spawnNode> | undefined;
  try {
    return await timeOnce(async () => {
      child = spawnNode(['dist/cli.js', '--config', seedFile, '--port', String(port)]);
      await waitHealthy(`http://127.0.0.1:${port}/_emulate/health`, child, 120_000);
    });
  } finally {
    if (child) await stopChild(child);
  }
}

export const ontology: Scenario = {
  name: 'ontology',
  title: `ontology objects: loadObjects filter and fetchOne among ${OBJECTS.toLocaleString('en-US')}, start-up and reset`,
  async run() {
    const result = newResult(this.name, this.title);
    const seedFile = writeOntologySeed(OBJECTS);
    const emptyFile = writeOntologySeed(0);
    let emulator: ServerProcess | undefined;
    let empty: ServerProcess | undefined;
    let baseline: ServerProcess | undefined;
    try {
      const starts = [];
      for (let i = 0; i < STARTS; i++) starts.push(await timeStart(seedFile));
      const emptyStart = await timeStart(emptyFile);
      result.metrics.push({ name: `start-up with ${OBJECTS} objects, median of ${STARTS}`, value: stats(starts).p50Ms, unit: 'ms', baseline: emptyStart });

      [emulator, empty] = await Promise.all([startServer(emulatorCommand(seedFile), 120_000), startServer(emulatorCommand(emptyFile))]);
      const bearer = `Bearer ${await token(emulator)}`;
      baseline = await startServer(
        benchScript('baseline', 'bench/baseline/ontology.ts', '/_emulate/health', ['--objects', String(OBJECTS), '--token', bearer.slice(7)]),
      );
      const perObject = (rssBytes(emulator.pid) - rssBytes(empty.pid)) / OBJECTS;
      result.metrics.push({ name: 'memory per object (RSS with them minus RSS with none)', value: perObject, unit: 'bytes' });
      result.notes.push(`RSS with ${OBJECTS} objects: ${(rssBytes(emulator.pid) / MB).toFixed(0)} MB, with none: ${(rssBytes(empty.pid) / MB).toFixed(0)} MB`);

      const headers = { authorization: bearer, 'content-type': 'application/json' };
      const filter = {
        requests: [{ method: 'POST', path: PATH, headers, body: loadObjectsBody(THREE_CLAUSE_WHERE, PAGE_SIZE) }],
        connections: settings.connections,
      };
      const keys = Array.from({ length: 1000 }, (_, i) => (i * 7919) % OBJECTS);
      const fetchOne = {
        requests: keys.map((id) => ({ method: 'POST', path: PATH, headers, body: loadObjectsBody({ type: 'eq', field: 'id', value: id }, 1) })),
        connections: settings.connections,
      };
      for (const [what, load, limit] of [
        ['three-clause filter', filter, 3],
        ['fetchOne by primary key', fetchOne, 3],
      ] as const) {
        const [emu, base] = await interleave([
          { name: `emulator: ${what}`, server: emulator, load },
          { name: `baseline: ${what}`, server: baseline, load },
        ]);
        result.loads.push(emu!, base!);
        result.metrics.push({ name: `${what}: p50`, value: emu!.p50Ms, unit: 'ms', baseline: base!.p50Ms });
        result.metrics.push({ name: `${what}: p99`, value: emu!.p99Ms, unit: 'ms', baseline: base!.p99Ms });
        result.metrics.push({ name: `${what}: CPU per request`, value: emu!.cpuUsPerRequest, unit: 'us', baseline: base!.cpuUsPerRequest });
        check(result, `${what}: CPU per request vs baseline`, emu!.cpuUsPerRequest / base!.cpuUsPerRequest, 'max', limit, 'x');
        check(result, `${what}: non-200 answers`, emu!.requests - (emu!.statuses['200'] ?? 0), 'max', 0, 'responses');
        no5xxCheck(result, emu!);
      }

      const resets: number[] = [];
      for (let i = 0; i < RESETS + 2; i++) {
        const t = await timeOnce(async () => {
          const reply = await request(`${emulator!.url}/_emulate/platform/reset`, { method: 'POST' });
          if (reply.status !== 200) throw new Error(`reset answered ${reply.status}`);
        });
        if (i >= 2) resets.push(t); // two warm-ups
      }
      const r = stats(resets);
      result.metrics.push({ name: `reset with ${OBJECTS} objects, median of ${RESETS}`, value: r.p50Ms, unit: 'ms' });
      result.metrics.push({ name: `reset, slowest of ${RESETS}`, value: r.maxMs, unit: 'ms' });
      check(result, 'reset, median', r.p50Ms, 'max', 500, 'ms');
      result.notes.push('start-up baseline: the same emulator with the same ontology and no objects');
    } finally {
      await stopAll([emulator, empty, baseline]);
    }
    return result;
  },
};
