// Live object sets (docs/live-ontology.md): N websocket subscribers spread over M filtered object sets while
// actions edit objects at a fixed rate. Three phases of the same edits: with nobody subscribed (what an edit
// costs by itself), with the subscribers (delivery latency, from sending the action to a subscriber reading the
// change: an upper bound of commit-to-delivery; the server's CPU per delivered update and per message, the
// edits' own cost taken out), and with the subscribers while getCurrent is loaded (its p50 against getCurrent
// alone). RSS per subscriber from before and after they connect. Sizes by env: BENCH_SUB_SUBSCRIBERS (default
// 100), BENCH_SUB_SETS (10), BENCH_SUB_EDITS_PER_S (100), BENCH_SUB_SECONDS (5), BENCH_SUB_OBJECTS (2000); the
// issue's full size is 1000 subscribers, 100 sets, 1000 edits/s. BENCH_SUB_CPU_PROF=<dir> runs the emulator
// under `node --cpu-prof` and writes its profile there.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { postJson, request } from '../lib/http.js';
import { runLoad } from '../lib/load.js';
import { percentile } from '../lib/load.js';
import { cpuMicros, rssBytes } from '../lib/proc.js';
import { check, newResult } from '../lib/report.js';
import type { Scenario } from '../lib/scenario.js';
import { emulatorCommand, startServer, type ServerProcess } from '../lib/processes.js';
import { mintTokens, stopAll } from '../lib/servers.js';
import { ADMIN_SCOPE } from '../lib/fixtures.js';
import { CATEGORIES, items } from '../lib/ontology-seed.js';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SUBSCRIBERS = env('BENCH_SUB_SUBSCRIBERS', 100);
const SETS = env('BENCH_SUB_SETS', 10);
const EDITS_PER_S = env('BENCH_SUB_EDITS_PER_S', 100);
const SECONDS = env('BENCH_SUB_SECONDS', 5);
const OBJECTS = env('BENCH_SUB_OBJECTS', 2000);
const CPU_PROF = process.env.BENCH_SUB_CPU_PROF;
const WORKER_PROF = process.env.BENCH_SUB_WORKER_PROF;
const RID = 'ri.ontology.main.ontology.live-bench';

interface Report {
  delivered: number;
  messages: number;
  latencies: number[];
  busy: number;
  splits: number[][];
}

interface Subscribers {
  /** What arrived since the last report. */
  report(): Promise<Report>;
  close(): Promise<void>;
}

/** Opens the subscribers on their own thread (bench/lib/subscriber-worker.mjs); resolves once all are subscribed. */
async function startSubscribers(url: string, token: string, objectSets: unknown[]): Promise<Subscribers> {
  const worker = new Worker(new URL('../lib/subscriber-worker.mjs', import.meta.url), {
    workerData: { url, token, objectSets, profileDir: WORKER_PROF },
  });
  const next = (type: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const onMessage = (m: Record<string, unknown>) => {
        if (m.type !== type) return;
        worker.off('message', onMessage);
        worker.off('error', reject);
        resolve(m);
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
    });
  await next('ready');
  return {
    async report() {
      const answer = next('report');
      worker.postMessage('report');
      return (await answer) as unknown as Report;
    },
    async close() {
      const closed = next('closed');
      worker.postMessage('close');
      await closed;
      await worker.terminate();
    },
  };
}
const MB = 1024 * 1024;

function seedFile(): string {
  const doc = {
    platform: {
      users: [{ username: 'bench' }],
      ontologies: [
        {
          api_name: 'live',
          display_name: 'Live bench',
          rid: RID,
          object_types: [
            {
              api_name: 'Item',
              primary_key: 'id',
              title_property: 'name',
              properties: { id: 'integer', name: 'string', category: 'string', price: 'integer', stock: 'integer', active: 'boolean' },
            },
          ],
          objects: { Item: items(OBJECTS) },
          action_types: [
            {
              api_name: 'rename',
              parameters: { item: { type: 'object', objectTypeApiName: 'Item' }, name: 'string' },
              edits: [{ modify: 'Item', primary_key: '$item', set: { name: '$name' } }],
            },
          ],
        },
      ],
    },
  };
  const file = join(mkdtempSync(join(tmpdir(), 'bench-live-')), 'platform.yaml');
  writeFileSync(file, JSON.stringify(doc));
  return file;
}

/** Set i: the items of one category with at least i / CATEGORIES in stock (distinct sets, overlapping members). */
const objectSet = (i: number) => ({
  type: 'filter',
  objectSet: { type: 'base', objectType: 'Item' },
  where: {
    type: 'and',
    value: [
      { type: 'eq', field: 'category', value: `c${i % CATEGORIES}` },
      { type: 'gte', field: 'stock', value: Math.floor(i / CATEGORIES) },
    ],
  },
});

/** Edits at a fixed rate for `seconds`, each an action on a random item; resolves once every reply is in. */
async function driveEdits(server: ServerProcess, token: string, seconds: number): Promise<{ edits: number; failed: number; replies: number[] }> {
  const started = performance.now();
  const pending: Array<Promise<unknown>> = [];
  const replies: number[] = [];
  let edits = 0;
  let failed = 0;
  while (performance.now() - started < seconds * 1000) {
    const due = Math.floor(((performance.now() - started) / 1000) * EDITS_PER_S);
    for (; edits < due; edits++) {
      // The send time rides in the name: the subscribers' thread reads it back (bench/lib/subscriber-worker.mjs).
      const sentAt = performance.now();
      const name = `e${edits}@${performance.timeOrigin + sentAt}`;
      pending.push(
        postJson(
          `${server.url}/api/v2/ontologies/live/actions/rename/apply`,
          { parameters: { item: Math.floor(Math.random() * OBJECTS), name } },
          { authorization: `Bearer ${token}` },
        ).then((r) => {
          replies.push(performance.now() - sentAt);
          if (r.status !== 200) failed++;
        }),
      );
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  await Promise.all(pending);
  await new Promise((r) => setTimeout(r, 500)); // the last deliveries
  return { edits, failed, replies };
}

export const subscriptions: Scenario = {
  name: 'subscriptions',
  title: `live object sets: ${SUBSCRIBERS} subscribers on ${SETS} sets, ${EDITS_PER_S} edits/s for ${SECONDS} s`,
  async run() {
    const result = newResult(this.name, this.title);
    let server: ServerProcess | undefined;
    let subscribers: Subscribers | undefined;
    try {
      const entry = CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`, 'dist/cli.js'] : undefined;
      server = await startServer(emulatorCommand(seedFile(), [], entry), 120_000);
      const pid = server.pid;
      const [readToken] = await mintTokens(server, 1, ['api:ontologies-read', 'api:ontologies-write'], 'bench');
      const getCurrentTokens = await mintTokens(server, 100, [ADMIN_SCOPE], 'bench');
      const getCurrent = {
        requests: getCurrentTokens.map((t) => ({ method: 'GET', path: '/api/v2/admin/users/getCurrent', headers: { authorization: `Bearer ${t}` } })),
        connections: 10,
        durationS: 3,
      };
      let cpu = cpuMicros(pid);
      const alone = await runLoad(server, getCurrent);
      // The yardstick for the CPU figures below: on a crowded machine every CPU figure swells alike.
      const cpuPerGetCurrent = (cpuMicros(pid) - cpu) / Math.max(alone.requests, 1);

      // 1. The edits with nobody subscribed: what an edit costs the server by itself.
      cpu = cpuMicros(pid);
      const plain = await driveEdits(server, readToken!, SECONDS);
      const cpuPlain = cpuMicros(pid) - cpu;
      const cpuPerEdit = cpuPlain / Math.max(plain.edits, 1);

      const rssBefore = rssBytes(pid);
      const wsUrl = `${server.url.replace('http', 'ws')}/api/v2/ontologySubscriptions/ontologies/${RID}/streamSubscriptions`;
      subscribers = await startSubscribers(
        wsUrl,
        readToken!,
        Array.from({ length: SUBSCRIBERS }, (_, s) => objectSet(s % SETS)),
      );
      const rssAfter = rssBytes(pid);
      await subscribers.report(); // from here on

      // 2. The same edits with the subscribers: delivery latency, and what delivering costs on top of the edits.
      cpu = cpuMicros(pid);
      const live = await driveEdits(server, readToken!, SECONDS);
      const cpuLive = cpuMicros(pid) - cpu;
      const delivered = await subscribers.report();
      // The server's side of it: messages still queued for slow readers, and refreshes sent for overflows.
      const view = (await request(`${server.url}/_emulate/platform/ontologies/subscriptions`)).json<{ items: Array<{ queued: number; refreshes: number }> }>();
      const refreshes = view.items.reduce((n, r) => n + r.refreshes, 0);

      // 3. The same again while getCurrent is loaded, against getCurrent alone.
      const [during, loaded] = await Promise.all([runLoad(server, getCurrent), driveEdits(server, readToken!, getCurrent.durationS)]);
      const deliveredLoaded = await subscribers.report();

      const sorted = [...delivered.latencies].sort((a, b) => a - b);
      const sortedLoaded = [...deliveredLoaded.latencies].sort((a, b) => a - b);
      const updates = delivered.delivered;
      const deliveryCpu = cpuLive - cpuPerEdit * live.edits;
      result.metrics.push({ name: 'edits sent (with subscribers)', value: live.edits, unit: 'actions' });
      result.metrics.push({ name: 'updates delivered', value: updates, unit: 'updates' });
      result.metrics.push({ name: 'objectSetChanged messages', value: delivered.messages, unit: 'messages' });
      result.metrics.push({ name: 'refreshObjectSet sent (queue overflows)', value: refreshes, unit: 'messages' });
      result.metrics.push({ name: 'edit reply p50 / p99 (with subscribers)', value: percentile(live.replies, 50), unit: 'ms' });
      result.metrics.push({ name: '(edit reply p99)', value: percentile(live.replies, 99), unit: 'ms' });
      result.metrics.push({ name: 'delivery latency p50', value: percentile(sorted, 50), unit: 'ms' });
      result.metrics.push({ name: 'delivery latency p99', value: percentile(sorted, 99), unit: 'ms' });
      result.metrics.push({ name: "subscribers' thread busy (event loop utilization)", value: 100 * delivered.busy, unit: '%' });
      result.metrics.push({ name: 'server CPU busy (with subscribers)', value: (100 * cpuLive) / ((SECONDS + 0.5) * 1e6), unit: '% of a core' });
      result.metrics.push({ name: 'server CPU per edit, nobody subscribed', value: cpuPerEdit, unit: 'us' });
      result.metrics.push({ name: 'server CPU per delivered update (edits included)', value: updates ? cpuLive / updates : NaN, unit: 'us' });
      result.metrics.push({ name: 'server CPU per delivered update (edits excluded)', value: updates ? deliveryCpu / updates : NaN, unit: 'us' });
      result.metrics.push({ name: 'server CPU per message (edits excluded)', value: delivered.messages ? deliveryCpu / delivered.messages : NaN, unit: 'us' });
      result.metrics.push({ name: 'server CPU per getCurrent request, alone (yardstick)', value: cpuPerGetCurrent, unit: 'us' });
      result.metrics.push({ name: 'RSS per subscriber', value: (rssAfter - rssBefore) / SUBSCRIBERS / 1024, unit: 'KiB' });
      result.metrics.push({ name: 'RSS with subscribers', value: rssAfter / MB, unit: 'MiB' });
      result.metrics.push({ name: 'getCurrent p50 alone', value: alone.p50Ms, unit: 'ms' });
      result.metrics.push({ name: 'getCurrent p50 during', value: during.p50Ms, unit: 'ms' });
      result.metrics.push({ name: 'getCurrent throughput alone', value: alone.requests / alone.seconds, unit: 'req/s' });
      result.metrics.push({ name: 'getCurrent throughput during', value: during.requests / during.seconds, unit: 'req/s' });
      result.metrics.push({ name: 'delivery latency p50 / p99 during getCurrent', value: percentile(sortedLoaded, 50), unit: 'ms' });
      result.metrics.push({ name: '(p99)', value: percentile(sortedLoaded, 99), unit: 'ms' });
      if (delivered.splits[0]!.length) {
        for (const [i, name] of ['send to run start', 'run start to queued', 'queued to receipt'].entries()) {
          const s = [...delivered.splits[i]!].sort((a, b) => a - b);
          result.metrics.push({ name: `stamps: ${name} p50`, value: percentile(s, 50), unit: 'ms' });
          result.metrics.push({ name: `stamps: ${name} p99`, value: percentile(s, 99), unit: 'ms' });
        }
      }
      check(result, 'delivery latency p50', percentile(sorted, 50), 'max', 50, 'ms');
      check(result, 'failed edits', plain.failed + live.failed + loaded.failed, 'max', 0, 'actions');
      check(result, 'updates delivered', updates, 'min', 1, 'updates');
      check(result, 'getCurrent p50 during / alone', during.p50Ms / Math.max(alone.p50Ms, 1), 'max', 1.2, 'x');
      result.notes.push('getCurrent p50 has 1 ms resolution (autocannon); the ratio divides by at least 1 ms');
      result.notes.push('CPU per update, edits excluded: (CPU with subscribers - CPU per edit alone x edits) / updates');
    } finally {
      await subscribers?.close();
      await stopAll([server]);
    }
    return result;
  },
};
