// The websocket subscribers of bench/scenarios/subscriptions.ts, on a thread of their own: in the bench's main
// thread, beside the edit driver and autocannon, their message handling fell behind the server on a 2-core
// machine, and the latency measured was the bench's. Each edit carries its send time (epoch ms) in the name it
// sets, so a subscriber measures delivery without sharing state with the sender. Plain JavaScript: a worker
// thread does not get the bench's TypeScript loader.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';
import { parseUpdates, scanStamps, scanUpdates } from './subscriber-scan.mjs';

/** @type {{ url: string, token: string, objectSets: unknown[], profileDir?: string }} */
const { url, token, objectSets, profileDir } = workerData;
const now = () => performance.timeOrigin + performance.now();
/** @type {WebSocket[]} */
const sockets = [];
let delivered = 0;
let messages = 0;
/** @type {number[]} */
let latencies = [];
/** With EMULATOR_BENCH_STAMPS=1 on the server: per update, send->run start, run start->queued, queued->receipt. */
let splits = [[], [], []];

// Per message: the send times its updates carry, read by scanning the bytes where the layout allows
// (subscriber-scan.mjs: a full JSON.parse per message was most of this thread's time), else by parsing.
function record(data, answered) {
  const t = now();
  let sent = scanUpdates(data);
  let times = sent && scanStamps(data);
  if (sent) messages++;
  else {
    const m = JSON.parse(String(data));
    if (m.type === 'subscribeResponses') answered();
    if (m.type === 'objectSetChanged') messages++;
    sent = parseUpdates(m);
    times = m.benchTimes;
  }
  for (const at of sent) {
    delivered++;
    if (Number.isNaN(at)) continue;
    latencies.push(t - at);
    if (times) {
      splits[0].push(times[1] - at);
      splits[1].push(times[2] - times[1]);
      splits[2].push(t - times[2]);
    }
  }
}

for (const [i, objectSet] of objectSets.entries()) {
  const ws = new WebSocket(url, [`Bearer-${token}`]);
  sockets.push(ws);
  await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
  await new Promise((answered) => {
    ws.on('message', (data) => record(data, answered));
    ws.send(JSON.stringify({ id: `s${i}`, requests: [{ objectSet, propertySet: [], referenceSet: [] }] }));
  });
}
// BENCH_SUB_WORKER_PROF=<dir>: this thread's CPU profile from here to the close, to see where its time goes.
const profiler = profileDir ? new Session() : undefined;
if (profiler) {
  profiler.connect();
  await profiler.post('Profiler.enable');
  await profiler.post('Profiler.start');
}
let elu = performance.eventLoopUtilization();
parentPort.postMessage({ type: 'ready' });
parentPort.on('message', (m) => {
  // What arrived since the last report (each phase of the bench reads its own).
  if (m === 'report') {
    // How busy this thread was since the last report (1: always busy, so the latencies are partly its own).
    const busy = performance.eventLoopUtilization(elu).utilization;
    elu = performance.eventLoopUtilization();
    parentPort.postMessage({ type: 'report', delivered, messages, latencies, busy, splits });
    splits = [[], [], []];
    delivered = 0;
    messages = 0;
    latencies = [];
  }
  if (m === 'close') void close();
});

async function close() {
  if (profiler) {
    const { profile } = await profiler.post('Profiler.stop');
    writeFileSync(join(profileDir, `subscribers-${Date.now()}.cpuprofile`), JSON.stringify(profile));
  }
  for (const ws of sockets) ws.terminate();
  parentPort.postMessage({ type: 'closed' });
  parentPort.close();
}
