// Reset to a seed of 10,000 users, timed from the client, one reset at a time.
import { request } from '../lib/http.js';
import { sampleSequentially } from '../lib/latency.js';
import { check, newResult } from '../lib/report.js';
import type { Scenario } from '../lib/scenario.js';
import { startEmulator } from '../lib/servers.js';
import { settings } from '../lib/settings.js';

const SAMPLES = 30;

export const reset: Scenario = {
  name: 'reset',
  title: `POST /_emulate/platform/reset with a ${settings.seedUsers.toLocaleString('en-US')}-user seed`,
  async run() {
    const result = newResult(this.name, this.title);
    const emulator = await startEmulator({ users: settings.seedUsers });
    try {
      const once = async () => {
        const reply = await request(`${emulator.url}/_emulate/platform/reset`, { method: 'POST' });
        if (reply.status !== 200) throw new Error(`reset answered ${reply.status}: ${reply.text()}`);
      };
      await sampleSequentially(3, once); // warm-up
      const s = await sampleSequentially(SAMPLES, once);
      result.metrics.push({ name: 'reset, median', value: s.p50Ms, unit: 'ms' });
      result.metrics.push({ name: `reset, slowest of ${SAMPLES}`, value: s.maxMs, unit: 'ms' });
      check(result, 'reset, median', s.p50Ms, 'max', 100, 'ms');
    } finally {
      await emulator.stop();
    }
    return result;
  },
};
