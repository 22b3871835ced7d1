// Datasets: upload and readTable (CSV and ARROW) of one large CSV file (BENCH_DATASET_MB, default 100), against a
// raw node:http file stream (bench/baseline/file-stream.ts) in the same run; the emulator's peak RSS growth
// during each, and the latency of getCurrent asked every 20 ms while they run (docs/datasets.md, "Bench").
import http from 'node:http';
import { closeSync, createReadStream, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postJson } from '../lib/http.js';
import { rssBytes } from '../lib/proc.js';
import { check, newResult } from '../lib/report.js';
import type { Scenario } from '../lib/scenario.js';
import { mintTokens, startEmulator, stopAll } from '../lib/servers.js';
import { benchScript, startServer, type ServerProcess } from '../lib/processes.js';
import { ADMIN_SCOPE } from '../lib/fixtures.js';

const MB = 1024 * 1024;
const SIZE_MB = Number(process.env.BENCH_DATASET_MB ?? 100);

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

export const datasets: Scenario = {
  name: 'datasets',
  title: `upload and readTable of a ${SIZE_MB} MB CSV vs a raw node:http file stream`,
  async run() {
    const result = newResult(this.name, this.title);
    const dir = mkdtempSync(join(tmpdir(), 'bench-datasets-'));
    let emulator: ServerProcess | undefined;
    let baseline: ServerProcess | undefined;
    try {
      const file = join(dir, 'large.csv');
      const size = writeCsv(file);
      [emulator, baseline] = await Promise.all([startEmulator(), startServer(benchScript('file stream', 'bench/baseline/file-stream.ts', '/_emulate/health'))]);
      const [token] = await mintTokens(emulator, 1, ['api:datasets-read', 'api:datasets-write']);
      const [admin] = await mintTokens(emulator, 1, [ADMIN_SCOPE]);
      const auth = { authorization: `Bearer ${token!}` };
      const created = await postJson(`${emulator.url}/api/v2/datasets`, { name: 'bench', parentFolderRid: 'ri.compass.main.folder.bench' }, auth);
      const rid = created.json<{ rid: string }>().rid;
      const mbps = (seconds: number) => size / MB / seconds;

      const baseUp = await send(`${baseline.url}/upload`, file, {});
      const baseDown = await fetchAll(`${baseline.url}/file`, {});
      const up = await observed(emulator, admin!, () =>
        send(`${emulator!.url}/api/v2/datasets/${rid}/files/large.csv/upload?transactionType=SNAPSHOT`, file, auth),
      );
      if (up.value.status !== 200) throw new Error(`upload answered ${up.value.status}`);
      const schema = {
        fieldSchemaList: ['STRING:sensor', 'DOUBLE:value', 'LONG:count', 'BOOLEAN:ok', 'TIMESTAMP:at'].map((s) => ({
          type: s.split(':')[0],
          name: s.split(':')[1],
          nullable: true,
        })),
      };
      const put = await new Promise<number>((resolve, reject) => {
        const req = http.request(
          `${emulator!.url}/api/v2/datasets/${rid}/putSchema`,
          { agent: false, method: 'PUT', headers: { ...auth, 'content-type': 'application/json' } },
          (res) => (res.resume(), resolve(res.statusCode ?? 0)),
        );
        req.on('error', reject);
        req.end(JSON.stringify({ schema }));
      });
      if (put !== 200) throw new Error(`putSchema answered ${put}`);
      // The first CSV read checks every value while it sends the file's text; a repeat read of a file known to fit
      // the schema sends its bytes unchecked (docs/datasets.md, "CSV").
      const csv = await observed(emulator, admin!, () => fetchAll(`${emulator!.url}/api/v2/datasets/${rid}/readTable?format=CSV`, auth));
      const again = await observed(emulator, admin!, () => fetchAll(`${emulator!.url}/api/v2/datasets/${rid}/readTable?format=CSV`, auth));
      const arrow = await observed(emulator, admin!, () => fetchAll(`${emulator!.url}/api/v2/datasets/${rid}/readTable?format=ARROW`, auth));

      result.metrics.push({ name: 'file size', value: size / MB, unit: 'MB' });
      result.metrics.push({ name: 'baseline upload', value: mbps(baseUp.seconds), unit: 'MB/s' });
      result.metrics.push({ name: 'baseline download', value: mbps(baseDown.seconds), unit: 'MB/s' });
      result.metrics.push({ name: 'upload', value: mbps(up.value.seconds), unit: 'MB/s', baseline: mbps(baseUp.seconds) });
      result.metrics.push({ name: 'readTable CSV (source MB per s)', value: mbps(csv.value.seconds), unit: 'MB/s', baseline: mbps(baseDown.seconds) });
      result.metrics.push({ name: 'readTable CSV again (source MB per s)', value: mbps(again.value.seconds), unit: 'MB/s', baseline: mbps(baseDown.seconds) });
      result.metrics.push({ name: 'readTable ARROW (source MB per s)', value: mbps(arrow.value.seconds), unit: 'MB/s', baseline: mbps(baseDown.seconds) });
      result.metrics.push({ name: 'readTable ARROW answer size', value: arrow.value.bytes / MB, unit: 'MB' });
      for (const [name, o] of [
        ['upload', up],
        ['readTable CSV', csv],
        ['readTable CSV again', again],
        ['readTable ARROW', arrow],
      ] as const) {
        result.metrics.push({ name: `${name}: peak RSS growth`, value: o.peakMb, unit: 'MB' });
        result.metrics.push({ name: `${name}: getCurrent p99 (${o.asked} asked)`, value: o.p99Ms, unit: 'ms' });
      }
      check(result, 'upload vs baseline', mbps(up.value.seconds) / mbps(baseUp.seconds), 'min', 0.5, 'x');
      check(result, 'readTable CSV vs baseline download', mbps(csv.value.seconds) / mbps(baseDown.seconds), 'min', 0.5, 'x');
      check(result, 'readTable CSV again vs baseline download', mbps(again.value.seconds) / mbps(baseDown.seconds), 'min', 0.5, 'x');
      // The memory store keeps the file itself in memory: the upload's growth beyond the data held is what counts.
      check(result, 'upload: RSS growth beyond the file held', up.peakMb - size / MB, 'max', 64, 'MB');
      check(result, 'readTable CSV: peak RSS growth', csv.peakMb, 'max', 64, 'MB');
      check(result, 'readTable CSV again: peak RSS growth', again.peakMb, 'max', 64, 'MB');
      check(result, 'readTable ARROW: peak RSS growth', arrow.peakMb, 'max', 64, 'MB');
      check(result, 'getCurrent p99 during upload', up.p99Ms, 'max', 20, 'ms');
      check(result, 'getCurrent p99 during readTable CSV', csv.p99Ms, 'max', 20, 'ms');
      check(result, 'getCurrent p99 during readTable CSV again', again.p99Ms, 'max', 20, 'ms');
      check(result, 'getCurrent p99 during readTable ARROW', arrow.p99Ms, 'max', 20, 'ms');
    } finally {
      await stopAll([emulator, baseline]);
      rmSync(dir, { recursive: true, force: true });
    }
    return result;
  },
};
