// Memory: RSS after minting 1,000,000 tokens, then after moving the clock past their lifetime (which sweeps
// them) and letting the server settle. The target: back within 50 MB of the RSS right after start-up.
import { postJson, request } from '../lib/http.js';
import { runLoad } from '../lib/load.js';
import { rssBytes } from '../lib/proc.js';
import { check, newResult } from '../lib/report.js';
import { ROUTE_MISSING, type Scenario } from '../lib/scenario.js';
import { routeAvailable, startEmulator } from '../lib/servers.js';
import { settings } from '../lib/settings.js';
import { ADMIN_SCOPE } from '../lib/fixtures.js';

const MB = 1024 * 1024;
const PAST_TOKEN_LIFETIME_MS = 3600_000 + 1000;
/** How long RSS is watched after the sweep, sampled once a second with a health request in between. */
const SETTLE_S = 20;
const LIMIT_MB = 50;

export const memory: Scenario = {
  name: 'memory',
  title: `RSS after minting ${settings.memoryTokens.toLocaleString('en-US')} tokens, and after they expire and are swept`,
  async run() {
    const result = newResult(this.name, this.title);
    const emulator = await startEmulator();
    try {
      if (!(await routeAvailable(emulator, 'GET', '/_emulate/platform/clock'))) return { ...result, skipped: ROUTE_MISSING };
      const atStart = rssBytes(emulator.pid);
      const mint = {
        method: 'POST',
        path: '/_emulate/platform/tokens',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', scopes: [ADMIN_SCOPE] }),
      };
      // A small excess: autocannon may stop a few pipelined requests short of `amount`; the sweep counts exactly.
      const run = await runLoad(emulator, { requests: [mint], connections: 32, pipelining: 4, amount: settings.memoryTokens + 1000 });
      const minted = run.statuses['200'] ?? 0;
      const afterMint = rssBytes(emulator.pid);
      const moved = await postJson(`${emulator.url}/_emulate/platform/clock`, { advanceMs: PAST_TOKEN_LIFETIME_MS });
      const swept = moved.json<{ swept: { tokens: number } }>().swept.tokens;
      const afterSweep = rssBytes(emulator.pid);
      let settled = afterSweep;
      let settledAfterS = NaN;
      for (let s = 1; s <= SETTLE_S; s++) {
        await new Promise((r) => setTimeout(r, 1000));
        await request(`${emulator.url}/_emulate/health`);
        settled = Math.min(settled, rssBytes(emulator.pid));
        if (Number.isNaN(settledAfterS) && settled - atStart <= LIMIT_MB * MB) settledAfterS = s;
      }
      result.metrics.push({ name: 'RSS after start-up', value: atStart / MB, unit: 'MB' });
      result.metrics.push({ name: `RSS after minting (${minted.toLocaleString('en-US')} answered 200)`, value: afterMint / MB, unit: 'MB' });
      result.metrics.push({ name: `RSS right after the sweep of ${swept.toLocaleString('en-US')}`, value: afterSweep / MB, unit: 'MB' });
      result.metrics.push({ name: `RSS, lowest within ${SETTLE_S} s after`, value: settled / MB, unit: 'MB' });
      result.metrics.push({ name: `seconds until within ${LIMIT_MB} MB of start`, value: settledAfterS, unit: 's' });
      result.metrics.push({ name: 'minting rate', value: minted / run.seconds, unit: 'tokens/s' });
      check(result, 'tokens minted and swept (counted by the sweep)', swept, 'min', settings.memoryTokens, '');
      check(result, 'RSS growth after the sweep', (settled - atStart) / MB, 'max', LIMIT_MB, 'MB');
    } finally {
      await emulator.stop();
    }
    return result;
  },
};
