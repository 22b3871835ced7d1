// `npx tsx bench/parquet-first-read.ts [runs] [dist folder...]`: the first Parquet -> ARROW read of a fresh
// emulator process over HTTP, as the datasets bench meets it (docs/datasets.md, "Parquet warm-up"): a small
// CSV -> ARROW read first (so the table worker is started, as the bench's CSV reads start it), then the bench's
// Parquet file uploaded in a SNAPSHOT commit, its schema put, and one ARROW read timed (first byte and whole
// answer), after PAUSE_MS (default 0) of other work, then the same read again (a warm one, for comparison). Each run starts a new process from each named build folder in turn (default `dist`), so two builds
// (copies of dist/ made before and after a change) are compared alternated in the same sitting.
import http from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { BENCH_PARQUET_SCHEMA as SCHEMA, cachedBenchParquet } from './lib/parquet-file.js';
import { postJson } from './lib/http.js';
import { mintTokens, startEmulator, stopAll } from './lib/servers.js';
import { cpuMicros } from './lib/proc.js';

const RUNS = Number(process.argv[2] ?? 3);
const BUILDS = process.argv.length > 3 ? process.argv.slice(3) : ['dist'];
const ROWS = 1_000_000;
/** PAUSE_MS: a pause between the Parquet commit and its read (a client that does other work in between). */
const PAUSE_MS = Number(process.env.PAUSE_MS ?? 0);

function call(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: Buffer | string,
): Promise<{ status: number; firstMs: number; ms: number; bytes: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(url, { agent: false, method, headers }, (res) => {
      let firstMs = -1;
      let bytes = 0;
      res.on('data', (c: Buffer) => {
        if (firstMs < 0) firstMs = performance.now() - started;
        bytes += c.length;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, firstMs, ms: performance.now() - started, bytes }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const parquet = await cachedBenchParquet(ROWS);
const csv = `sensor,value,count,ok,at\n${Array.from({ length: 2000 }, (_, i) => `s${i % 9},${i / 4},${i},${i % 2 === 0},2026-01-01T00:00:0${i % 10}Z`).join('\n')}\n`;
for (let run = 1; run <= RUNS; run++) {
  for (const build of BUILDS) {
    const server = await startEmulator({}, [], [join(build, 'cli.js')]);
    try {
      const [token] = await mintTokens(server, 1, ['api:datasets-read', 'api:datasets-write']);
      const auth = { authorization: `Bearer ${token!}` };
      const dataset = async (name: string, file: string, bytes: Buffer | string) => {
        const rid = (await postJson(`${server.url}/api/v2/datasets`, { name, parentFolderRid: 'ri.compass.main.folder.bench' }, auth)).json<{ rid: string }>()
          .rid;
        const up = await call(
          `${server.url}/api/v2/datasets/${rid}/files/${file}/upload?transactionType=SNAPSHOT`,
          'POST',
          { ...auth, 'content-type': 'application/octet-stream' },
          bytes,
        );
        const put = await call(
          `${server.url}/api/v2/datasets/${rid}/putSchema`,
          'PUT',
          { ...auth, 'content-type': 'application/json' },
          JSON.stringify({ schema: SCHEMA }),
        );
        if (up.status !== 200 || put.status !== 200) throw new Error(`upload ${up.status}, putSchema ${put.status}`);
        return rid;
      };
      const small = await dataset('small', 'small.csv', csv);
      await call(`${server.url}/api/v2/datasets/${small}/readTable?format=ARROW`, 'GET', auth);
      const rid = await dataset('large', 'large.parquet', parquet);
      if (PAUSE_MS > 0) await new Promise((r) => setTimeout(r, PAUSE_MS));
      // The server's CPU for each read (every thread, from /proc): steadier than wall time on a shared machine.
      const cpu0 = cpuMicros(server.pid);
      const read = await call(`${server.url}/api/v2/datasets/${rid}/readTable?format=ARROW`, 'GET', auth);
      const cpu1 = cpuMicros(server.pid);
      if (read.status !== 200) throw new Error(`readTable answered ${read.status}`);
      const mbps = parquet.length / 1048576 / (read.ms / 1000);
      // The same read again: what a warm process takes, beside the first in the same sitting.
      const again = await call(`${server.url}/api/v2/datasets/${rid}/readTable?format=ARROW`, 'GET', auth);
      const cpu2 = cpuMicros(server.pid);
      const ms = (micros: number) => (micros / 1000).toFixed(0);
      console.log(
        `run ${run} ${build}: first Parquet -> ARROW read ${read.ms.toFixed(0)} ms (${mbps.toFixed(1)} MB/s of file), first byte at ${read.firstMs.toFixed(0)} ms, server CPU ${ms(cpu1 - cpu0)} ms; again ${again.ms.toFixed(0)} ms, CPU ${ms(cpu2 - cpu1)} ms; load ${loadavg()[0]!.toFixed(2)}`,
      );
    } finally {
      await stopAll([server]);
    }
  }
}
