// The whole authorization code flow, headless: authorize with login_hint (302 with a code), then the code
// exchange at the token endpoint with Basic auth. Reported as flows per second and latency per flow.
import { CLIENT_ID, CLIENT_SECRET, REDIRECT_URI } from '../lib/fixtures.js';
import { basicAuth, postForm, request } from '../lib/http.js';
import { sampleSequentially } from '../lib/latency.js';
import { measureRoundTrips } from '../lib/round-trips.js';
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
        const token = await postForm(
          `${emulator.url}${TOKEN_PATH}`,
          { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI },
          { authorization: basicAuth(CLIENT_ID, CLIENT_SECRET) },
        );
        if (token.status !== 200) failures++;
      };
      await sampleSequentially(200, flow); // warm-up
      await measureRoundTrips(result, {
        noun: 'flow',
        samples: Math.min(settings.samples, 1000),
        callers: CALLERS,
        seconds: settings.durationS * settings.rounds,
        task: flow,
        cpuOf: { 'server (2 requests)': emulator.pid },
      });
      check(result, 'failed flows', failures, 'max', 0, 'flows');
    } finally {
      await emulator.stop();
    }
    return result;
  },
};
