// How fast a queued job reaches a waiting poll, and how long a synchronous execute takes end to end, against
// a real server on 127.0.0.1. Run: node --import tsx bench/compute-module-wakeup.ts [rounds]
// The poll hold is 10 s, so every answer below that proves the wake-up, not the hold, delivered the job.
import { performance } from 'node:perf_hooks';
import { startEmulator } from '../src/index.js';

const rounds = Number(process.argv[2] ?? 200);
const RUNTIMES = '/_emulate/platform/compute-modules/runtimes';
const MUX = '/analytics-backend-multiplexer/api/module-group-multiplexer';
const APP = 'ri.bench.app';

const emulator = await startEmulator({
  seed: {
    platform: {
      compute_modules: {
        poll_timeout_ms: 10_000,
        runtimes: [{ runtime_id: 'bench', module_auth_token: 'bench-token' }],
        deployed_apps: [{ deployed_app_rid: APP, runtime_id: 'bench' }],
      },
    },
  },
});
const minted = await fetch(`${emulator.url}/_emulate/platform/tokens`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ username: 'admin' }),
});
const auth = { authorization: `Bearer ${((await minted.json()) as { access_token: string }).access_token}`, 'content-type': 'application/json' };
const moduleHeaders = { 'module-auth-token': 'bench-token' };
const job = JSON.stringify({ deployedAppRid: APP, queryType: 'add', query: { a: 1, b: 2 } });
const poll = () => fetch(`${emulator.url}${RUNTIMES}/bench/job`, { headers: moduleHeaders });

const stats = (ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(2);
  return `median ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${at(1)} ms (${ms.length} rounds)`;
};

// 1. Submit -> a poll that is already waiting answers.
const wakeups: number[] = [];
for (let i = 0; i < rounds; i++) {
  const waiting = poll();
  await new Promise((resolve) => setTimeout(resolve, 5)); // let the poll arrive and start waiting
  const submitted = performance.now();
  await fetch(`${emulator.url}${MUX}/deployed-apps/jobs`, { method: 'POST', headers: auth, body: job });
  const res = await waiting;
  const answeredAt = performance.now();
  if (res.status !== 200) throw new Error(`poll answered ${res.status}`);
  const { computeModuleJobV1 } = (await res.json()) as { computeModuleJobV1: { jobId: string } };
  wakeups.push(answeredAt - submitted);
  await fetch(`${emulator.url}${RUNTIMES}/bench/results/${computeModuleJobV1.jobId}`, { method: 'POST', headers: moduleHeaders, body: '3' });
}

// 2. Synchronous execute with a module loop answering (poll -> result), one at a time.
let running = true;
const moduleLoop = (async () => {
  while (running) {
    const res = await poll();
    if (res.status !== 200) continue;
    const { computeModuleJobV1 } = (await res.json()) as { computeModuleJobV1: { jobId: string } };
    await fetch(`${emulator.url}${RUNTIMES}/bench/results/${computeModuleJobV1.jobId}`, { method: 'POST', headers: moduleHeaders, body: '3' });
  }
})();
const executes: number[] = [];
for (let i = 0; i < rounds; i++) {
  const started = performance.now();
  const res = await fetch(`${emulator.url}${MUX}/compute-modules/jobs/execute`, { method: 'POST', headers: auth, body: job });
  if ((await res.text()) !== '3') throw new Error('wrong answer');
  executes.push(performance.now() - started);
}
running = false;
await fetch(`${emulator.url}${MUX}/deployed-apps/jobs`, { method: 'POST', headers: auth, body: job }); // releases the loop's last poll
await moduleLoop;
await emulator.close();

console.log(`submit -> waiting poll answered: ${stats(wakeups)}`);
console.log(`synchronous execute round trip:   ${stats(executes)}`);
