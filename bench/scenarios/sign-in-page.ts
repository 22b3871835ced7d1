// The sign-in page with 10,000 users: GET authorize without login_hint renders a button per active human user.
import { ADMIN_SCOPE, CLIENT_ID, REDIRECT_URI } from '../lib/fixtures.js';
import { request } from '../lib/http.js';
import { sampleSequentially } from '../lib/latency.js';
import { check, newResult } from '../lib/report.js';
import { ROUTE_MISSING, type Scenario } from '../lib/scenario.js';
import { routeAvailable, startEmulator } from '../lib/servers.js';
import { settings } from '../lib/settings.js';

export const AUTHORIZE_PATH = '/idp/api/oauth2/authorize';
const SAMPLES = 30;

export const authorizeQuery = (extra: Record<string, string> = {}): string =>
  new URLSearchParams({ response_type: 'code', client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, scope: ADMIN_SCOPE, state: 'bench', ...extra }).toString();

export const signInPage: Scenario = {
  name: 'sign-in-page',
  title: `GET ${AUTHORIZE_PATH} rendering the sign-in page with ${settings.seedUsers.toLocaleString('en-US')} users`,
  async run() {
    const result = newResult(this.name, this.title);
    const emulator = await startEmulator({ users: settings.seedUsers });
    try {
      if (!(await routeAvailable(emulator, 'GET', AUTHORIZE_PATH))) return { ...result, skipped: ROUTE_MISSING };
      const url = `${emulator.url}${AUTHORIZE_PATH}?${authorizeQuery()}`;
      let bytes = 0;
      let html = '';
      const once = async () => {
        const reply = await request(url);
        if (reply.status !== 200) throw new Error(`authorize answered ${reply.status}: ${reply.text().slice(0, 300)}`);
        bytes = reply.body.length;
        html = reply.text();
      };
      await sampleSequentially(3, once);
      const s = await sampleSequentially(SAMPLES, once);
      const last = `user${String(settings.seedUsers - 1).padStart(5, '0')}`;
      result.metrics.push({ name: 'sign-in page, median', value: s.p50Ms, unit: 'ms' });
      result.metrics.push({ name: `sign-in page, slowest of ${SAMPLES}`, value: s.maxMs, unit: 'ms' });
      result.metrics.push({ name: 'page size', value: bytes / 1024, unit: 'KiB' });
      check(result, 'sign-in page, median', s.p50Ms, 'max', 100, 'ms');
      check(result, 'page lists the last seeded user', html.includes(last) ? 1 : 0, 'min', 1, '');
      if (!/<input[^>]*type="search"/i.test(html)) result.notes.push('no <input type="search"> filter box found on the page');
    } finally {
      await emulator.stop();
    }
    return result;
  },
};
