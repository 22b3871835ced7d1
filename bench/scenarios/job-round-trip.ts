// Compute-module job round trip through a real runtime-SDK module: sync execute -> queue -> the module's
// long-poll -> its result post -> the held execute answers. Latency one at a time, and throughput with 16 callers.
import { DEPLOYED_APP_RID } from '../lib/fixtures.js';
import { postJson } from '../lib/http.js';
import { sampleSequentially } from '../lib/latency.js';
import { measureRoundTrips } from '../lib/round-trips.js';
import { stopChild } from '../lib/processes.js';
import { RUNTIMES_PATH, startEchoModule, type EchoModule } from '../lib/echo-module.js';
import { check, newResult } from '../lib/report.js';
import { ROUTE_MISSING, type Scenario } from '../lib/scenario.js';
import { mintTokens, routeAvailable, startEmulator } from '../lib/servers.js';
import { settings } from '../lib/settings.js';

export { RUNTIMES_PATH } from '../lib/echo-module.js';
export const EXECUTE_PATH = '/analytics-backend-multiplexer/api/module-group-multiplexer/compute-modules/jobs/execute';
const CALLERS = 16;

export const jobRoundTrip: Scenario = {
  name: 'job-round-trip',
  title: 'compute-module job round trip: sync execute through a real @palantir/compute-module module',
  async run() {
    const result = newResult(this.name, this.title);
    const emulator = await startEmulator({ computeModules: true });
    let module: EchoModule | undefined;
    try {
      if (!(await routeAvailable(emulator, 'POST', RUNTIMES_PATH)) || !(await routeAvailable(emulator, 'POST', EXECUTE_PATH))) {
        return { ...result, skipped: ROUTE_MISSING };
      }
      module = await startEchoModule(emulator.url);

      const [token] = await mintTokens(emulator, 1, []);
      const url = `${emulator.url}${EXECUTE_PATH}`;
      let failures = 0;
      let n = 0;
      const execute = async () => {
        const query = { n: n++ };
        const reply = await postJson(url, { deployedAppRid: DEPLOYED_APP_RID, queryType: 'echo', query }, { authorization: `Bearer ${token}` });
        if (reply.status !== 200 || reply.json<{ n: number }>().n !== query.n) failures++;
      };
      await execute(); // waits until the module polls
      await sampleSequentially(200, execute); // warm-up
      failures = 0;
      const sequential = await measureRoundTrips(result, {
        noun: 'job',
        samples: settings.samples,
        callers: CALLERS,
        seconds: settings.durationS * settings.rounds,
        task: execute,
        cpuOf: { 'server (execute, poll, result)': emulator.pid, module: module.pid! },
      });
      check(result, 'sequential p50', sequential.p50Ms, 'max', 5, 'ms');
      check(result, 'sequential p99', sequential.p99Ms, 'max', 25, 'ms');
      check(result, 'failed or wrong answers', failures, 'max', 0, 'jobs');
    } finally {
      if (module) await stopChild(module);
      await emulator.stop();
    }
    return result;
  },
};
