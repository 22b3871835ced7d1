// Datasets: upload and readTable (CSV and ARROW) of one large CSV file (BENCH_DATASET_MB, default 100) and one
// Parquet file (BENCH_PARQUET_ROWS, default 1,000,000; 0 leaves it out), against a raw node:http file stream
// (bench/baseline/file-stream.ts) in the same run; the emulator's peak RSS growth during each, and the latency
// of getCurrent asked every 20 ms while they run (docs/datasets.md, "Bench"). BENCH_DATASET_STORE names a
// PostgreSQL store to run against instead of memory.
import http from 'node:http';
import { closeSync, createReadStream, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { writeBenchParquet } from '../lib/parquet-file.js';
import { postJson } from '../lib/http.js';
import { rssBytes } from '../lib/proc.js';
import { check, newResult } from '../lib/report.js';
import type { Scenario } from '../lib/scenario.js';
import { mintTokens, startEmulator, stopAll } from '../lib/servers.js';
import { benchScript, startServer, type ServerProcess } from '../lib/processes.js';
import { ADMIN_SCOPE } from '../lib/fixtures.js';

const MB = 1024 * 1024;
const SIZE_MB = Number(process.env.BENCH_DATASET_MB ?? 100);
const PARQUET_ROWS = Number(process.env.BENCH_PARQUET_ROWS ?? 1_000_000);
/** BENCH_DATASET_STORE=postgres://...: the emulator keeps the bytes in PostgreSQL instead of memory. */
const STORE = process.env.BENCH_DATASET_STORE ?? '';

function writeCsv(file: string): number {
  const fd = openSync(file, 'w');
  writeSync(fd, 'sensor,value,count,ok,at\n');
  let size = 0;
  for (let i = 0; size < SIZE_MB * MB; i++) {
    const lines: string[] = [];
    for (let j = 0; j < 10_000; j++, i++)
      lines.push(`s${i % 100},${(i / 3).toFixed(4)},${i},${i % 2 === 0},2026-01-01T00:00:${String(i % 60).padStart(2, '0')}Z`);
    const chunk = lines.join('\n') + '\n';
    writeSync(fd, chunk);
    size += Buffer.byteLength(chunk);
  }
  closeSync(fd);
  return statSync(file).size;
}

/** Sends `file` as the body; resolves with the status and the seconds taken. */
function send(url: string, file: string, headers: Record<string, string>): Promise<{ status: number; seconds: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { agent: false, method: 'POST', headers: { 'content-type': 'application/octet-stream', 'content-length': String(statSync(file).size), ...headers } },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, seconds: (performance.now() - started) / 1000 }));
      },
    );
    req.on('error', reject);
    createReadStream(file).pipe(req);
  });
}

/** Reads the answer to its end, counting bytes. A fresh connection each time (no keep-alive race with a server's idle close). */
function fetchAll(url: string, headers: Record<string, string>): Promise<{ status: number; bytes: number; seconds: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false, headers }, (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, seconds: (performance.now() - started) / 1000 }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** Runs `work` while sampling the server's RSS and asking getCurrent every 20 ms; answers peak growth and p99. */
async function observed<T>(
  server: ServerProcess,
  adminToken: string,
  work: () => Promise<T>,
): Promise<{ value: T; peakMb: number; p99Ms: number; asked: number }> {
  const base = rssBytes(server.pid);
  let peak = base;
  const latencies: number[] = [];
  let running = true;
  const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(server.pid))), 25);
  const prober = (async () => {
    while (running) {
      const started = performance.now();
      await fetchAll(`${server.url}/api/v2/admin/users/getCurrent`, { authorization: `Bearer ${adminToken}` });
      latencies.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  let value: T;
  try {
    value = await work();
  } finally {
    running = false;
    clearInterval(sampler);
    await prober;
  }
  latencies.sort((a, b) => a - b);
  const p99Ms = latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))] ?? NaN;
  return { value, peakMb: (peak - base) / MB, p99Ms, asked: latencies.length };
}

const SCHEMA = {
  fieldSchemaList: ['STRING:sensor', 'DOUBLE:value', 'LONG:count', 'BOOLEAN:ok', 'TIMESTAMP:at'].map((s) => ({
    type: s.split(':')[0],
    name: s.split(':')[1],
    nullable: true,
  })),
};

/** The same rows as writeCsv, as a Parquet file of PARQUET_ROWS rows (bench/lib/parquet-file.ts); its size. */
async function writeParquet(file: string): Promise<number> {
  await writeBenchParquet(file, PARQUET_ROWS);
  return statSync(file).size;
}

function putSchema(url: string, auth: Record<string, string>): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const req = http.request(
      url,
      { agent: false, method: 'PUT', headers: { ...auth, 'content-type': 'application/json' } },
      (res) => (res.resume(), resolve(res.statusCode ?? 0)),
    );
    req.on('error', reject);
    req.end(JSON.stringify({ schema: SCHEMA }));
  });
}

type Observed = Awaited<ReturnType<typeof observed<{ status: number; bytes?: number; seconds: number }>>>;

/**
 * One file through both servers: the baseline's upload and download, then the emulator's upload into a new
 * dataset, its schema, and the table reads named in `reads` (label -> format), each observed.
 */
async function tableRun(
  emulator: ServerProcess,
  baseline: ServerProcess,
  tokens: { auth: Record<string, string>; admin: string },
  file: string,
  reads: Array<[string, 'CSV' | 'ARROW']>,
) {
  const name = basename(file);
  const created = await postJson(`${emulator.url}/api/v2/datasets`, { name, parentFolderRid: 'ri.compass.main.folder.bench' }, tokens.auth);
  const rid = created.json<{ rid: string }>().rid;
  const baseUp = await send(`${baseline.url}/upload`, file, {});
  const baseDown = await fetchAll(`${baseline.url}/file`, {});
  const up = await observed(emulator, tokens.admin, () =>
    send(`${emulator.url}/api/v2/datasets/${rid}/files/${name}/upload?transactionType=SNAPSHOT`, file, tokens.auth),
  );
  if (up.value.status !== 200) throw new Error(`upload of ${name} answered ${up.value.status}`);
  const put = await putSchema(`${emulator.url}/api/v2/datasets/${rid}/putSchema`, tokens.auth);
  if (put !== 200) throw new Error(`putSchema answered ${put}`);
  const done: Array<[string, Observed]> = [];
  for (const [label, format] of reads) {
    const read = await observed(emulator, tokens.admin, () => fetchAll(`${emulator.url}/api/v2/datasets/${rid}/readTable?format=${format}`, tokens.auth));
    if (read.value.status !== 200) throw new Error(`readTable ${label} answered ${read.value.status}`);
    done.push([label, read]);
  }
  return { baseUp, baseDown, up, reads: done };
}

/** Metrics and checks of one tableRun: rates against the baseline's, RSS growth and getCurrent p99. */
function report(result: ReturnType<typeof newResult>, prefix: string, size: number, run: Awaited<ReturnType<typeof tableRun>>, rateChecked: readonly string[]) {
  const mbps = (seconds: number) => size / MB / seconds;
  result.metrics.push({ name: `${prefix} file size`, value: size / MB, unit: 'MB' });
  result.metrics.push({ name: `${prefix} baseline upload`, value: mbps(run.baseUp.seconds), unit: 'MB/s' });
  result.metrics.push({ name: `${prefix} baseline download`, value: mbps(run.baseDown.seconds), unit: 'MB/s' });
  result.metrics.push({ name: `${prefix} upload`, value: mbps(run.up.value.seconds), unit: 'MB/s', baseline: mbps(run.baseUp.seconds) });
  check(result, `${prefix} upload vs baseline`, mbps(run.up.value.seconds) / mbps(run.baseUp.seconds), 'min', 0.5, 'x');
  // The memory store keeps the file itself in memory: the upload's growth beyond the data held is what counts.
  // PostgreSQL holds it elsewhere: all of the growth counts.
  if (STORE) check(result, `${prefix} upload: peak RSS growth`, run.up.peakMb, 'max', 64, 'MB');
  else check(result, `${prefix} upload: RSS growth beyond the file held`, run.up.peakMb - size / MB, 'max', 64, 'MB');
  check(result, `${prefix} getCurrent p99 during upload (${run.up.asked} asked)`, run.up.p99Ms, 'max', 20, 'ms');
  for (const [label, read] of run.reads) {
    const rate = mbps(read.value.seconds);
    result.metrics.push({ name: `${prefix} readTable ${label} (source MB per s)`, value: rate, unit: 'MB/s', baseline: mbps(run.baseDown.seconds) });
    result.metrics.push({ name: `${prefix} readTable ${label} answer size`, value: (read.value.bytes ?? 0) / MB, unit: 'MB' });
    if (rateChecked.includes(label)) check(result, `${prefix} readTable ${label} vs baseline download`, rate / mbps(run.baseDown.seconds), 'min', 0.5, 'x');
    else result.metrics.push({ name: `${prefix} readTable ${label} vs baseline download`, value: rate / mbps(run.baseDown.seconds), unit: 'x' });
    check(result, `${prefix} readTable ${label}: peak RSS growth`, read.peakMb, 'max', 64, 'MB');
    check(result, `${prefix} getCurrent p99 during readTable ${label} (${read.asked} asked)`, read.p99Ms, 'max', 20, 'ms');
  }
}

export const datasets: Scenario = {
  name: 'datasets',
  title: `upload and readTable of a ${SIZE_MB} MB CSV${PARQUET_ROWS > 0 ? ` and a ${PARQUET_ROWS.toLocaleString('en-US')}-row Parquet file` : ''} vs a raw node:http file stream${STORE ? ' (PostgreSQL store)' : ''}`,
  async run() {
    const result = newResult(this.name, this.title);
    const dir = mkdtempSync(join(tmpdir(), 'bench-datasets-'));
    let emulator: ServerProcess | undefined;
    let baseline: ServerProcess | undefined;
    try {
      const csvFile = join(dir, 'large.csv');
      const parquetFile = join(dir, 'large.parquet');
      const csvSize = writeCsv(csvFile);
      const parquetSize = PARQUET_ROWS > 0 ? await writeParquet(parquetFile) : 0;
      [emulator, baseline] = await Promise.all([
        startEmulator({}, STORE ? ['--store', STORE] : []),
        startServer(benchScript('file stream', 'bench/baseline/file-stream.ts', '/_emulate/health')),
      ]);
      const [token] = await mintTokens(emulator, 1, ['api:datasets-read', 'api:datasets-write']);
      const [admin] = await mintTokens(emulator, 1, [ADMIN_SCOPE]);
      const tokens = { auth: { authorization: `Bearer ${token!}` }, admin: admin! };
      // The first CSV read checks every value while it sends the file's own text; a repeat read of a file known
      // to fit the schema sends its bytes unchecked (docs/datasets.md, "CSV").
      const csv = await tableRun(emulator, baseline, tokens, csvFile, [
        ['CSV', 'CSV'],
        ['CSV again', 'CSV'],
        ['ARROW', 'ARROW'],
      ]);
      report(result, 'CSV:', csvSize, csv, ['CSV', 'CSV again']);
      if (PARQUET_ROWS > 0) {
        const parquet = await tableRun(emulator, baseline, tokens, parquetFile, [
          ['ARROW', 'ARROW'],
          ['CSV', 'CSV'],
        ]);
        report(result, 'Parquet:', parquetSize, parquet, ['ARROW', 'CSV']);
      }
    } finally {
      await stopAll([emulator, baseline]);
      rmSync(dir, { recursive: true, force: true });
    }
    return result;
  },
};
