// The whole authorization code flow, headless: authorize with login_hint (302 with a code), then the code
// exchange at the token endpoint with Basic auth. Reported as flows per second and latency per flow.
import { CLIENT_ID, CLIENT_SECRET, REDIRECT_URI } from '../lib/fixtures.js';
import { basicAuth, postForm, request } from '../lib/http.js';
import { closedLoop, sampleSequentially, stats } from '../lib/latency.js';
import { cpuMicros } from '../lib/proc.js';
import { check, newResult } from '../lib/report.js';
import { ROUTE_MISSING, type Scenario } from '../lib/scenario.js';
import { routeAvailable, startEmulator } from '../lib/servers.js';
import { settings } from '../lib/settings.js';
import { AUTHORIZE_PATH, authorizeQuery } from './sign-in-page.js';
import { TOKEN_PATH } from './token-endpoint.js';

const CALLERS = 16;

export const authCodeFlow: Scenario = {
  name: 'auth-code-flow',
  title: 'authorization code flow: authorize with login_hint, then code exchange',
  async run() {
    const result = newResult(this.name, this.title);
    const emulator = await startEmulator();
    try {
      if (!(await routeAvailable(emulator, 'GET', AUTHORIZE_PATH)) || !(await routeAvailable(emulator, 'POST', TOKEN_PATH))) {
        return { ...result, skipped: ROUTE_MISSING };
      }
      const authorizeUrl = `${emulator.url}${AUTHORIZE_PATH}?${authorizeQuery({ login_hint: 'admin' })}`;
      let failures = 0;
      const flow = async () => {
        const authorize = await request(authorizeUrl);
        const code = authorize.status === 302 ? new URL(String(authorize.headers.location)).searchParams.get('code') : null;
        if (!code) {
          failures++;
          return;
        }
        const token = await postForm(`${emulator.url}${TOKEN_PATH}`, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI }, { authorization: basicAuth(CLIENT_ID, CLIENT_SECRET) });
        if (token.status !== 200) failures++;
      };
      await sampleSequentially(200, flow); // warm-up
      const sequential = await sampleSequentially(Math.min(settings.samples, 1000), flow);
      const cpuBefore = cpuMicros(emulator.pid);
      const loop = await closedLoop(CALLERS, settings.durationS * settings.rounds, flow);
      const cpu = cpuMicros(emulator.pid) - cpuBefore;
      const concurrent = stats(loop.times);
      result.metrics.push({ name: 'one flow at a time, p50', value: sequential.p50Ms, unit: 'ms' });
      result.metrics.push({ name: 'one flow at a time, p99', value: sequential.p99Ms, unit: 'ms' });
      result.metrics.push({ name: `${CALLERS} callers, flows per second`, value: loop.completed / loop.seconds, unit: 'flows/s' });
      result.metrics.push({ name: `${CALLERS} callers, p50`, value: concurrent.p50Ms, unit: 'ms' });
      result.metrics.push({ name: `${CALLERS} callers, p99`, value: concurrent.p99Ms, unit: 'ms' });
      result.metrics.push({ name: 'server CPU per flow (2 requests)', value: cpu / loop.completed, unit: 'us' });
      check(result, 'failed flows', failures, 'max', 0, 'flows');
    } finally {
      await emulator.stop();
    }
    return result;
  },
};
