// Streams (docs/streams.md, "Bench"): publish throughput (one record per request, and batches of 100), read
// latency on a large stream, and the emulator's RSS growth per million records held, against a raw node:http
// floor (bench/baseline/streams.ts) in the same run. Sizes by environment: BENCH_STREAM_RECORDS (records in
// the large stream, default 100,000), BENCH_STREAM_SINGLES (single-record publishes, default 3,000).
import { inParallel, postJson, request } from '../lib/http.js';
import { stats } from '../lib/latency.js';
import { timeOnce } from '../lib/latency.js';
import { rssBytes } from '../lib/proc.js';
import { check, newResult } from '../lib/report.js';
import type { Scenario } from '../lib/scenario.js';
import { mintTokens, startEmulator, stopAll } from '../lib/servers.js';
import { benchScript, startServer, type ServerProcess } from '../lib/processes.js';

const RECORDS = Number(process.env.BENCH_STREAM_RECORDS ?? 100_000);
const SINGLES = Number(process.env.BENCH_STREAM_SINGLES ?? 3_000);
const BATCH = 100;
const READS = 300;
const MB = 1024 * 1024;

const record = (i: number) => ({ id: `sensor-${i % 1000}`, temperature: 20 + (i % 100) / 10, at: '2026-01-01T00:00:00Z' });
const SCHEMA = {
  fields: [
    { name: 'id', schema: { nullable: false, dataType: { type: 'string' } } },
    { name: 'temperature', schema: { nullable: true, dataType: { type: 'double' } } },
    { name: 'at', schema: { nullable: true, dataType: { type: 'timestamp' } } },
  ],
};

interface Target {
  server: ServerProcess;
  at: string;
  headers: Record<string, string>;
}

async function publishSingles(t: Target, count: number): Promise<number> {
  const started = performance.now();
  await inParallel(count, 16, async (i) => {
    const res = await postJson(`${t.at}/publishRecord`, { record: record(i) }, t.headers);
    if (res.status !== 204) throw new Error(`publishRecord answered ${res.status}: ${res.text().slice(0, 200)}`);
  });
  return count / ((performance.now() - started) / 1000);
}

async function publishBatches(t: Target, count: number): Promise<number> {
  const started = performance.now();
  await inParallel(Math.ceil(count / BATCH), 8, async (b) => {
    const records = Array.from({ length: BATCH }, (_, j) => record(b * BATCH + j));
    const res = await postJson(`${t.at}/publishRecords`, { records }, t.headers);
    if (res.status !== 204) throw new Error(`publishRecords answered ${res.status}: ${res.text().slice(0, 200)}`);
  });
  return count / ((performance.now() - started) / 1000);
}

async function readLatency(t: Target, end: number) {
  const times: number[] = [];
  for (let i = 0; i < READS; i++) {
    const start = Math.floor(((i * 7919) % READS) * (end / READS));
    times.push(
      await timeOnce(async () => {
        const res = await request(`${t.at}/getRecords?partitionId=0&limit=100&startOffset=${start}`, { headers: t.headers });
        if (res.status !== 200) throw new Error(`getRecords answered ${res.status}`);
      }),
    );
  }
  return stats(times);
}

export const streams: Scenario = {
  name: 'streams',
  title: `publish ${SINGLES} single records and ${RECORDS} in batches of ${BATCH}, read a ${RECORDS}-record stream, vs a raw node:http floor`,
  async run() {
    const result = newResult(this.name, this.title);
    let emulator: ServerProcess | undefined;
    let floor: ServerProcess | undefined;
    try {
      [emulator, floor] = await Promise.all([startEmulator(), startServer(benchScript('streams floor', 'bench/baseline/streams.ts', '/_emulate/health'))]);
      const [token] = await mintTokens(emulator, 1, ['api:streams-read', 'api:streams-write']);
      const headers = { authorization: `Bearer ${token!}` };
      const made = await postJson(
        `${emulator.url}/api/v2/streams/datasets/create`,
        { name: 'bench', parentFolderRid: 'ri.compass.main.folder.bench', schema: SCHEMA },
        headers,
      );
      if (made.status !== 200) throw new Error(`create answered ${made.status}: ${made.text()}`);
      const rid = made.json<{ rid: string }>().rid;
      const path = `/api/v2/highScale/streams/datasets/${rid}/streams/master`;
      const emu: Target = { server: emulator, at: `${emulator.url}${path}`, headers };
      const raw: Target = { server: floor, at: `${floor.url}${path}`, headers: {} };

      const rawSingles = await publishSingles(raw, SINGLES);
      const emuSingles = await publishSingles(emu, SINGLES);
      const rawBatches = await publishBatches(raw, RECORDS);
      const rssBefore = rssBytes(emulator.pid);
      const emuBatches = await publishBatches(emu, RECORDS);
      const rssAfter = rssBytes(emulator.pid);
      const rawRead = await readLatency(raw, RECORDS);
      const emuRead = await readLatency(emu, RECORDS + SINGLES);
      const perMillion = ((rssAfter - rssBefore) / MB / RECORDS) * 1_000_000;

      result.metrics.push({ name: 'publishRecord (1 per request, 16 in flight)', value: emuSingles, unit: 'records/s', baseline: rawSingles });
      result.metrics.push({ name: `publishRecords (${BATCH} per request, 8 in flight)`, value: emuBatches, unit: 'records/s', baseline: rawBatches });
      result.metrics.push({ name: 'getRecords 100 at a random offset: p50', value: emuRead.p50Ms, unit: 'ms', baseline: rawRead.p50Ms });
      result.metrics.push({ name: 'getRecords 100 at a random offset: p99', value: emuRead.p99Ms, unit: 'ms', baseline: rawRead.p99Ms });
      result.metrics.push({ name: `RSS growth over ${RECORDS} batched records, per million`, value: perMillion, unit: 'MB' });
      result.notes.push('a shared, noisy 2-core machine: run-to-run spread is large; compare the emulator to the floor of the same run');
      check(result, 'publishRecord vs floor', emuSingles / rawSingles, 'min', 0.2, 'x');
      check(result, 'publishRecords vs floor', emuBatches / rawBatches, 'min', 0.2, 'x');
      check(result, 'getRecords p99', emuRead.p99Ms, 'max', 50, 'ms');
      check(result, 'RSS per million records', perMillion, 'max', 400, 'MB');
    } finally {
      await stopAll([emulator, floor]);
    }
    return result;
  },
};
