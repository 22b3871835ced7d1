// getCurrent with 10,000 live tokens, every connection cycling through all of them, against the raw baseline.
import { ADMIN_SCOPE } from '../lib/fixtures.js';
import { interleave } from '../lib/compare.js';
import { check, newResult, no5xxCheck } from '../lib/report.js';
import type { Scenario } from '../lib/scenario.js';
import { mintTokens, startBaseline, startEmulator, startFastifyFloor, stopAll } from '../lib/servers.js';
import { settings } from '../lib/settings.js';
import type { ServerProcess } from '../lib/processes.js';

const PATH = '/api/v2/admin/users/getCurrent';

export const getCurrent: Scenario = {
  name: 'get-current',
  title: `GET ${PATH} with ${settings.liveTokens.toLocaleString('en-US')} live tokens`,
  async run() {
    const result = newResult(this.name, this.title);
    let emulator: ServerProcess | undefined;
    let baseline: ServerProcess | undefined;
    let floor: ServerProcess | undefined;
    try {
      [emulator, baseline, floor] = await Promise.all([startEmulator(), startBaseline(), startFastifyFloor()]);
      const load = async (server: ServerProcess) => {
        const tokens = await mintTokens(server, settings.liveTokens, [ADMIN_SCOPE]);
        return { requests: tokens.map((t) => ({ method: 'GET', path: PATH, headers: { authorization: `Bearer ${t}` } })), connections: settings.connections };
      };
      const subjects = [
        { name: 'emulator', server: emulator, load: await load(emulator) },
        { name: 'baseline', server: baseline, load: await load(baseline) },
        { name: floor.name, server: floor, load: await load(floor) },
      ];
      result.loads = await interleave(subjects);
      const [emu, base] = result.loads as [(typeof result.loads)[0], (typeof result.loads)[0]];
      check(result, 'CPU per request vs baseline', emu.cpuUsPerRequest / base.cpuUsPerRequest, 'max', 1.2, 'x');
      check(result, 'throughput vs baseline', emu.rps / base.rps, 'min', 0.7, 'x');
      no5xxCheck(result, emu);
      check(result, 'emulator: non-200 answers', emu.requests - (emu.statuses['200'] ?? 0), 'max', 0, 'responses');
      result.notes.push('no peer serves this route; the peer comparison is made at the token endpoint');
    } finally {
      await stopAll([emulator, baseline, floor]);
    }
    return result;
  },
};
