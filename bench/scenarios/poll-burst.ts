// Many held polls and a burst of jobs (issue 10, item 8): 2,000 module polls wait on one runtime, then 500
// jobs are submitted at once. Each job should wake one poll; when every job woke every poll, 500 jobs with
// 2,500 polls held took 7.1 s and 14 s of CPU. Baseline, measured in the same run: the same 500 submits to a
// runtime nobody polls (queueing alone).
import { performance } from 'node:perf_hooks';
import { DEPLOYED_APP_RID, RUNTIME_ID } from '../lib/fixtures.js';
import { inParallel, postJson, request, type Reply } from '../lib/http.js';
import { cpuMicros } from '../lib/proc.js';
import { check, newResult } from '../lib/report.js';
import type { Scenario } from '../lib/scenario.js';
import { mintTokens, startEmulator } from '../lib/servers.js';
import { RUNTIMES_PATH } from './job-round-trip.js';

const HELD = 2_000;
const BURST = 500;
const SUBMIT_PATH = '/analytics-backend-multiplexer/api/module-group-multiplexer/deployed-apps/jobs';
const IDLE_APP = 'ri.foundry.main.deployed-app.bench-idle';

export const pollBurst: Scenario = {
  name: 'poll-burst',
  title: `${BURST} jobs submitted at once to a runtime with ${HELD.toLocaleString('en-US')} polls held`,
  async run() {
    const result = newResult(this.name, this.title);
    const emulator = await startEmulator({ computeModules: true, pollTimeoutMs: 120_000 });
    const held: Array<Promise<Reply | undefined>> = [];
    try {
      const session = await postJson(`${emulator.url}${RUNTIMES_PATH}`, { runtimeId: RUNTIME_ID });
      const token = session.json<{ moduleAuthToken: string }>().moduleAuthToken;
      const idle = await postJson(`${emulator.url}${RUNTIMES_PATH}`, { runtimeId: 'bench-idle', deployedAppRid: IDLE_APP });
      if (session.status !== 200 || idle.status !== 200) throw new Error(`runtime sessions: ${session.status} ${idle.status}`);
      const [bearer] = await mintTokens(emulator, 1, []);
      const auth = { authorization: `Bearer ${bearer}` };
      const submit = async (rid: string) => {
        const reply = await postJson(`${emulator.url}${SUBMIT_PATH}`, { deployedAppRid: rid, queryType: 'echo', query: {} }, auth);
        if (reply.status !== 200) throw new Error(`submit answered ${reply.status}: ${reply.text()}`);
        return reply.json<{ id: string }>().id;
      };
      const pollHeaders = { 'module-auth-token': token };
      const pollUrl = `${emulator.url}${RUNTIMES_PATH}/${RUNTIME_ID}/job`;

      // Baseline: the burst alone, to a runtime nobody polls.
      let started = performance.now();
      await inParallel(BURST, 64, async () => void (await submit(IDLE_APP)));
      const queueOnlyMs = performance.now() - started;

      // A marker job, handed out, through whose inspection the server's count of waiting polls is read.
      const marker = await submit(DEPLOYED_APP_RID);
      if ((await request(pollUrl, { headers: pollHeaders })).status !== 200) throw new Error('the marker job was not handed out');
      let answered = 0;
      let allAnswered!: () => void;
      const drained = new Promise<void>((resolve) => (allAnswered = resolve));
      for (let i = 0; i < HELD; i++) {
        // Each on its own connection, as separate module replicas would poll.
        held.push(
          request(pollUrl, { headers: pollHeaders, fresh: true }).then(
            (reply) => {
              if (reply.status === 200 && ++answered === BURST) allAnswered();
              return reply;
            },
            () => undefined,
          ),
        );
      }
      const waiting = async () =>
        (await request(`${emulator.url}${RUNTIMES_PATH}/${RUNTIME_ID}/jobs/${marker}`)).json<{ runtime: { waitingPolls: number } }>().runtime.waitingPolls;
      for (let tries = 0; (await waiting()) < HELD; tries++) {
        if (tries > 3_000) throw new Error(`the server never held ${HELD} polls`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }

      const cpuBefore = cpuMicros(emulator.pid);
      started = performance.now();
      await inParallel(BURST, 64, async () => void (await submit(DEPLOYED_APP_RID)));
      await drained;
      const drainMs = performance.now() - started;
      const cpuMs = (cpuMicros(emulator.pid) - cpuBefore) / 1000;

      result.metrics.push({ name: `burst of ${BURST} handed out, ${HELD} polls held`, value: drainMs, unit: 'ms', baseline: queueOnlyMs });
      result.metrics.push({ name: 'server CPU during the burst', value: cpuMs, unit: 'ms' });
      result.notes.push(`baseline: the same ${BURST} submits to a runtime with no poll held (${queueOnlyMs.toFixed(0)} ms)`);
      check(result, `burst of ${BURST} drained`, drainMs, 'max', 1_000, 'ms');
      check(result, 'polls still held after the burst', await waiting(), 'min', HELD - BURST, 'polls');
    } finally {
      await emulator.stop(); // the polls still held end with the server
      await Promise.all(held);
    }
    return result;
  },
};
