// The websocket subscribers of bench/scenarios/subscriptions.ts, on a thread of their own: in the bench's main
// thread, beside the edit driver and autocannon, their message handling fell behind the server on a 2-core
// machine, and the latency measured was the bench's. Each edit carries its send time (epoch ms) in the name it
// sets, so a subscriber measures delivery without sharing state with the sender. Plain JavaScript: a worker
// thread does not get the bench's TypeScript loader.
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';

/** @type {{ url: string, token: string, objectSets: unknown[] }} */
const { url, token, objectSets } = workerData;
const now = () => performance.timeOrigin + performance.now();
/** @type {WebSocket[]} */
const sockets = [];
let delivered = 0;
let messages = 0;
/** @type {number[]} */
let latencies = [];

function record(data, answered) {
  const m = JSON.parse(String(data));
  if (m.type === 'subscribeResponses') answered();
  if (m.type === 'objectSetChanged') messages++;
  for (const u of m.updates ?? []) {
    delivered++;
    const at = u.object.name?.split('@')[1];
    if (at !== undefined) latencies.push(now() - Number(at));
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
let elu = performance.eventLoopUtilization();
parentPort.postMessage({ type: 'ready' });
parentPort.on('message', (m) => {
  // What arrived since the last report (each phase of the bench reads its own).
  if (m === 'report') {
    // How busy this thread was since the last report (1: always busy, so the latencies are partly its own).
    const busy = performance.eventLoopUtilization(elu).utilization;
    elu = performance.eventLoopUtilization();
    parentPort.postMessage({ type: 'report', delivered, messages, latencies, busy });
    delivered = 0;
    messages = 0;
    latencies = [];
  }
  if (m === 'close') {
    for (const ws of sockets) ws.terminate();
    parentPort.close();
  }
});
