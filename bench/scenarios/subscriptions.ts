// Live object sets (docs/live-ontology.md): N websocket subscribers spread over M filtered object sets while
// actions edit objects at a fixed rate. Reports the delivery latency (from sending the action to a subscriber
// reading the change: an upper bound of commit-to-delivery), the server's CPU per delivered update, its RSS
// per subscriber, and getCurrent's latency while all this runs against getCurrent alone. Sizes by env:
// BENCH_SUB_SUBSCRIBERS (default 100), BENCH_SUB_SETS (10), BENCH_SUB_EDITS_PER_S (100), BENCH_SUB_SECONDS (5),
// BENCH_SUB_OBJECTS (2000); the full size is 1000 subscribers, 100 sets, 1000 edits/s.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { postJson } from '../lib/http.js';
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
const RID = 'ri.ontology.main.ontology.live-bench';

interface Subscribers {
  report(): Promise<{ delivered: number; latencies: number[] }>;
  close(): Promise<void>;
}

/** Opens the subscribers on their own thread (bench/lib/subscriber-worker.mjs); resolves once all are subscribed. */
async function startSubscribers(url: string, token: string, objectSets: unknown[]): Promise<Subscribers> {
  const worker = new Worker(new URL('../lib/subscriber-worker.mjs', import.meta.url), { workerData: { url, token, objectSets } });
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
      return (await answer) as unknown as { delivered: number; latencies: number[] };
    },
    async close() {
      worker.postMessage('close');
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

export const subscriptions: Scenario = {
  name: 'subscriptions',
  title: `live object sets: ${SUBSCRIBERS} subscribers on ${SETS} sets, ${EDITS_PER_S} edits/s for ${SECONDS} s`,
  async run() {
    const result = newResult(this.name, this.title);
    let server: ServerProcess | undefined;
    let subscribers: Subscribers | undefined;
    try {
      server = await startServer(emulatorCommand(seedFile()), 120_000);
      const [readToken] = await mintTokens(server, 1, ['api:ontologies-read', 'api:ontologies-write'], 'bench');
      const getCurrentTokens = await mintTokens(server, 100, [ADMIN_SCOPE], 'bench');
      const getCurrent = {
        requests: getCurrentTokens.map((t) => ({ method: 'GET', path: '/api/v2/admin/users/getCurrent', headers: { authorization: `Bearer ${t}` } })),
        connections: 10,
        durationS: 3,
      };
      const alone = await runLoad(server, getCurrent);

      const rssBefore = rssBytes(server.pid);
      const wsUrl = `${server.url.replace('http', 'ws')}/api/v2/ontologySubscriptions/ontologies/${RID}/streamSubscriptions`;
      subscribers = await startSubscribers(
        wsUrl,
        readToken!,
        Array.from({ length: SUBSCRIBERS }, (_, s) => objectSet(s % SETS)),
      );
      const rssAfter = rssBytes(server.pid);

      // Edits at a fixed rate, each an action on a random item, while getCurrent is measured again.
      const cpuStart = cpuMicros(server.pid);
      const deliveredStart = (await subscribers.report()).delivered;
      let edits = 0;
      let failed = 0;
      const editing = (async () => {
        const started = performance.now();
        const pending: Array<Promise<unknown>> = [];
        while (performance.now() - started < SECONDS * 1000) {
          const due = Math.floor(((performance.now() - started) / 1000) * EDITS_PER_S);
          for (; edits < due; edits++) {
            // The send time rides in the name: the subscribers' thread reads it back (bench/lib/subscriber-worker.mjs).
            const name = `e${edits}@${performance.timeOrigin + performance.now()}`;
            pending.push(
              postJson(
                `${server!.url}/api/v2/ontologies/live/actions/rename/apply`,
                { parameters: { item: Math.floor(Math.random() * OBJECTS), name } },
                { authorization: `Bearer ${readToken}` },
              ).then((r) => {
                if (r.status !== 200) failed++;
              }),
            );
          }
          await new Promise((r) => setTimeout(r, 5));
        }
        await Promise.all(pending);
        await new Promise((r) => setTimeout(r, 500)); // the last deliveries
      })();
      const during = await runLoad(server, getCurrent);
      await editing;
      const cpu = cpuMicros(server.pid) - cpuStart;
      const report = await subscribers.report();
      const updates = report.delivered - deliveredStart;

      const sorted = [...report.latencies].sort((a, b) => a - b);
      result.metrics.push({ name: 'edits sent', value: edits, unit: 'actions' });
      result.metrics.push({ name: 'updates delivered', value: updates, unit: 'updates' });
      result.metrics.push({ name: 'delivery latency p50', value: percentile(sorted, 50), unit: 'ms' });
      result.metrics.push({ name: 'delivery latency p99', value: percentile(sorted, 99), unit: 'ms' });
      result.metrics.push({
        name: 'server CPU per delivered update (edits and the getCurrent load included)',
        value: updates ? cpu / updates : NaN,
        unit: 'us',
      });
      result.metrics.push({ name: 'RSS per subscriber', value: (rssAfter - rssBefore) / SUBSCRIBERS / 1024, unit: 'KiB' });
      result.metrics.push({ name: 'RSS with subscribers', value: rssAfter / MB, unit: 'MiB' });
      result.metrics.push({ name: 'getCurrent p50 alone', value: alone.p50Ms, unit: 'ms' });
      result.metrics.push({ name: 'getCurrent p50 during', value: during.p50Ms, unit: 'ms' });
      result.metrics.push({ name: 'getCurrent throughput alone', value: alone.requests / alone.seconds, unit: 'req/s' });
      result.metrics.push({ name: 'getCurrent throughput during', value: during.requests / during.seconds, unit: 'req/s' });
      check(result, 'delivery latency p50', percentile(sorted, 50), 'max', 50, 'ms');
      check(result, 'failed edits', failed, 'max', 0, 'actions');
      check(result, 'updates delivered', updates, 'min', 1, 'updates');
      check(result, 'getCurrent p50 during / alone', during.p50Ms / Math.max(alone.p50Ms, 1), 'max', 1.2, 'x');
      result.notes.push('getCurrent p50 has 1 ms resolution (autocannon); the ratio divides by at least 1 ms');
    } finally {
      await subscribers?.close();
      await stopAll([server]);
    }
    return result;
  },
};
