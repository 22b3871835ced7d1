// The PostgreSQL store (docs/contracts.md §12) against the memory store in the same run: getCurrent and the token
// endpoint on one instance each (target: at least 0.3x the memory store's throughput; CPU per request of the
// emulator, and of the PostgreSQL server beside it), and the job round trip across two instances sharing the
// database (execute on A, the module polling B; target p50 under 10 ms). Skipped when no server answers at
// BENCH_STORE (else TEST_STORE, else the local test cluster of scripts/pg-cluster.sh).
import { readdirSync, readFileSync } from 'node:fs';
import { ADMIN_SCOPE, DEPLOYED_APP_RID } from '../lib/fixtures.js';
import { interleave } from '../lib/compare.js';
import { postJson } from '../lib/http.js';
import { sampleSequentially } from '../lib/latency.js';
import { cpuMicros } from '../lib/proc.js';
import { stopChild, type ServerProcess } from '../lib/processes.js';
import { check, newResult, no5xxCheck, type ScenarioResult } from '../lib/report.js';
import type { Scenario } from '../lib/scenario.js';
import { mintTokens, startEmulator, stopAll } from '../lib/servers.js';
import { settings } from '../lib/settings.js';
import { clientCredentialsRequest, TOKEN_PATH } from './token-endpoint.js';
import { EXECUTE_PATH } from './job-round-trip.js';
import { startEchoModule, type EchoModule } from '../lib/echo-module.js';
import { LOCAL_CLUSTER_URL, dropSchemas, freshSchemaUrl, reachable, withoutCredentials } from '../../scripts/pg-lib.js';

const SCHEMA_PREFIX = 'pe_bench_';
const GET_CURRENT = '/api/v2/admin/users/getCurrent';

/** CPU microseconds of each PostgreSQL server process on this machine (the bench's cluster is the only one), by pid. */
function postgresCpuMicros(): Map<string, number> {
  const byPid = new Map<string, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') byPid.set(entry, cpuMicros(Number(entry)));
    } catch {
      // the process ended meanwhile
    }
  }
  return byPid;
}

/**
 * CPU the PostgreSQL processes spent since `before`, process by process: a pool connection that idles out and
 * exits meanwhile must not subtract what it had spent before (a plain difference of sums went negative).
 */
function postgresCpuSince(before: Map<string, number>): number {
  let spent = 0;
  for (const [pid, micros] of postgresCpuMicros()) spent += micros - (before.get(pid) ?? 0);
  return spent;
}

async function compare(
  result: ScenarioResult,
  label: string,
  memory: ServerProcess,
  pg: ServerProcess,
  requests: (s: ServerProcess) => Promise<object[]>,
): Promise<void> {
  const pgCpuBefore = postgresCpuMicros();
  const loads = await interleave([
    { name: `memory ${label}`, server: memory, load: { requests: (await requests(memory)) as never, connections: settings.connections } },
    { name: `postgres ${label}`, server: pg, load: { requests: (await requests(pg)) as never, connections: settings.connections } },
  ]);
  const pgServerCpu = postgresCpuSince(pgCpuBefore);
  result.loads.push(...loads);
  const [mem, onPg] = loads as [(typeof loads)[0], (typeof loads)[0]];
  check(result, `${label}: throughput on PostgreSQL vs memory`, onPg.rps / mem.rps, 'min', 0.3, 'x');
  no5xxCheck(result, onPg);
  check(result, `${label}: non-200 answers on PostgreSQL`, onPg.requests - (onPg.statuses['200'] ?? 0), 'max', 0, 'responses');
  result.metrics.push({ name: `${label}: emulator CPU us/req on PostgreSQL`, value: onPg.cpuUsPerRequest, unit: 'us', baseline: mem.cpuUsPerRequest });
  // Includes the warm-up run and any other client of the cluster.
  result.metrics.push({ name: `${label}: PostgreSQL server CPU us/req (incl. warm-up)`, value: pgServerCpu / onPg.requests, unit: 'us' });
}

/** p50/p99 of a sync execute sent to `executor` while the module polls `poller` (the same server or another). */
async function jobRoundTrip(executor: ServerProcess, poller: ServerProcess): Promise<{ p50Ms: number; p99Ms: number; failures: number }> {
  let module: EchoModule | undefined;
  try {
    module = await startEchoModule(poller.url);
    const [token] = await mintTokens(executor, 1, []);
    let failures = 0;
    let n = 0;
    const execute = async () => {
      const query = { n: n++ };
      const reply = await postJson(
        `${executor.url}${EXECUTE_PATH}`,
        { deployedAppRid: DEPLOYED_APP_RID, queryType: 'echo', query },
        { authorization: `Bearer ${token}` },
      );
      if (reply.status !== 200 || reply.json<{ n: number }>().n !== query.n) failures++;
    };
    await execute(); // waits until the module polls
    await sampleSequentially(100, execute); // warm-up
    failures = 0;
    const stats = await sampleSequentially(Math.min(settings.samples, 1000), execute);
    return { ...stats, failures };
  } finally {
    if (module) await stopChild(module);
  }
}

async function jobRoundTrips(result: ScenarioResult, store: string): Promise<void> {
  // The same round trip on one memory-store instance, in the same run: how fast this machine is right now.
  const memory = await startEmulator({ computeModules: true });
  let local: Awaited<ReturnType<typeof jobRoundTrip>>;
  try {
    local = await jobRoundTrip(memory, memory);
  } finally {
    await memory.stop();
  }
  const [a, b] = await Promise.all([startEmulator({ computeModules: true }, ['--store', store]), startEmulator({ computeModules: true }, ['--store', store])]);
  try {
    const across = await jobRoundTrip(a, b);
    result.metrics.push({ name: 'job round trip, 2 PostgreSQL instances: p50', value: across.p50Ms, unit: 'ms', baseline: local.p50Ms });
    result.metrics.push({ name: 'job round trip, 2 PostgreSQL instances: p99', value: across.p99Ms, unit: 'ms', baseline: local.p99Ms });
    check(result, 'job round trip across 2 instances: p50', across.p50Ms, 'max', 10, 'ms');
    check(result, 'job round trip: failed or wrong answers', across.failures + local.failures, 'max', 0, 'jobs');
    result.notes.push('job round trip baseline: one memory-store instance, the module polling it');
  } finally {
    await stopAll([a, b]);
  }
}

export const postgres: Scenario = {
  name: 'postgres',
  title: 'PostgreSQL store vs memory store: getCurrent, token endpoint, job round trip across two instances',
  async run() {
    const result = newResult(this.name, this.title);
    const base = process.env.BENCH_STORE || process.env.TEST_STORE || LOCAL_CLUSTER_URL;
    if (!(await reachable(base)))
      return { ...result, skipped: `no PostgreSQL answers at ${withoutCredentials(base)} (scripts/pg-cluster.sh start, or set BENCH_STORE)` };
    const started: ServerProcess[] = [];
    try {
      const memory = await startEmulator();
      const pg = await startEmulator({}, ['--store', freshSchemaUrl(base, SCHEMA_PREFIX)]);
      started.push(memory, pg);
      const liveTokens = Math.min(settings.liveTokens, 2000);
      await compare(result, 'getCurrent', memory, pg, async (server) =>
        (await mintTokens(server, liveTokens, [ADMIN_SCOPE])).map((t) => ({ method: 'GET', path: GET_CURRENT, headers: { authorization: `Bearer ${t}` } })),
      );
      await compare(result, 'token endpoint', memory, pg, async () => [clientCredentialsRequest(TOKEN_PATH)]);
      await stopAll(started.splice(0));
      await jobRoundTrips(result, freshSchemaUrl(base, SCHEMA_PREFIX));
      result.notes.push(`getCurrent cycles through ${liveTokens.toLocaleString('en-US')} live tokens per server; PostgreSQL at ${withoutCredentials(base)}`);
    } finally {
      await stopAll(started);
      await dropSchemas(base, SCHEMA_PREFIX).catch(() => undefined);
    }
    return result;
  },
};
