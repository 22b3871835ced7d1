// Functions served by compute modules (docs/functions.md): the round trip of a function call through the
// ontology query route (`POST /api/v2/ontologies/bench/queries/com.bench.computemodules.echo/execute`) to a real
// @palantir/compute-module module, beside the raw job round trip (the multiplexer's sync execute) to the same
// module in the same run. The difference is what the query layer adds (parameter check, registration lookup,
// answer check). Plain HTTP callers, so that neither side carries a client library's cost. The target (at most
// 0.3 ms p50 added) is checked on interleaved pairs over several rounds (bench/lib/interleave.ts), the median of
// the rounds' p50 differences: on a shared machine two blocks measured one after the other differ by more than
// that from noise alone.
import { DEPLOYED_APP_RID } from '../lib/fixtures.js';
import { postJson } from '../lib/http.js';
import { sampleSequentially } from '../lib/latency.js';
import { measureRoundTrips } from '../lib/round-trips.js';
import { stopChild } from '../lib/processes.js';
import { startEchoModule, type EchoModule } from '../lib/echo-module.js';
import { check, newResult } from '../lib/report.js';
import type { ScenarioResult } from '../lib/report.js';
import type { Scenario } from '../lib/scenario.js';
import { mintTokens, startEmulator } from '../lib/servers.js';
import { settings } from '../lib/settings.js';
import { EXECUTE_PATH } from './job-round-trip.js';
import { interleavedOverhead } from '../lib/interleave.js';

const CALLERS = 16;
const QUERY_PATH = '/api/v2/ontologies/bench/queries/com.bench.computemodules.echo/execute';

export const functionCall: Scenario = {
  name: 'function-call',
  title: 'function call round trip (ontology query -> job -> module) beside the raw job round trip',
  async run() {
    const result = newResult(this.name, this.title);
    const emulator = await startEmulator({ computeModules: true, functions: true });
    let module: EchoModule | undefined;
    try {
      module = await startEchoModule(emulator.url);
      const [token] = await mintTokens(emulator, 1, ['api:ontologies-read']);
      const headers = { authorization: `Bearer ${token}` };
      let failures = 0;
      let n = 0;
      const job = async () => {
        const query = { n: n++ };
        const reply = await postJson(`${emulator.url}${EXECUTE_PATH}`, { deployedAppRid: DEPLOYED_APP_RID, queryType: 'echo', query }, headers);
        if (reply.status !== 200 || reply.json<{ n: number }>().n !== query.n) failures++;
      };
      const call = async () => {
        const parameters = { n: n++ };
        const reply = await postJson(`${emulator.url}${QUERY_PATH}`, { parameters }, headers);
        if (reply.status !== 200 || reply.json<{ value: { n: number } }>().value.n !== parameters.n) failures++;
      };
      await job(); // waits until the module polls
      for (let i = 0; i < 200 && (await postJson(`${emulator.url}${QUERY_PATH}`, { parameters: { n: 0 } }, headers)).status !== 200; i++) await job(); // until its schema is in
      await sampleSequentially(200, job);
      await sampleSequentially(200, call);
      failures = 0;
      const part = (): ScenarioResult => ({ ...result, metrics: [] });
      const raw = part();
      const rawSeq = await measureRoundTrips(raw, {
        noun: 'job',
        samples: settings.samples,
        callers: CALLERS,
        seconds: settings.durationS * settings.rounds,
        task: job,
        cpuOf: { server: emulator.pid },
      });
      const fn = part();
      const fnSeq = await measureRoundTrips(fn, {
        noun: 'call',
        samples: settings.samples,
        callers: CALLERS,
        seconds: settings.durationS * settings.rounds,
        task: call,
        cpuOf: { server: emulator.pid },
      });
      result.metrics.push(
        ...raw.metrics.map((m) => ({ ...m, name: `raw job: ${m.name}` })),
        ...fn.metrics.map((m) => ({ ...m, name: `function call: ${m.name}` })),
      );
      const rounds = Math.max(5, settings.rounds + 1);
      const overhead = await interleavedOverhead(job, call, rounds, Math.max(100, Math.round(settings.samples / rounds)));
      result.metrics.push(
        { name: 'interleaved: raw job p50', value: overhead.aP50Ms, unit: 'ms' },
        { name: 'interleaved: function call p50', value: overhead.bP50Ms, unit: 'ms' },
        {
          name: `interleaved: p50 difference per round (${overhead.roundDiffsMs.map((d) => d.toFixed(3)).join(', ')})`,
          value: overhead.medianDiffMs,
          unit: 'ms',
        },
        { name: 'separate blocks: p50 difference (noise-prone)', value: fnSeq.p50Ms - rawSeq.p50Ms, unit: 'ms' },
      );
      check(result, 'query layer adds at p50 (median of interleaved rounds)', overhead.medianDiffMs, 'max', 0.3, 'ms');
      check(result, 'failed or wrong answers', failures, 'max', 0, 'calls');
    } finally {
      if (module) await stopChild(module);
      await emulator.stop();
    }
    return result;
  },
};
