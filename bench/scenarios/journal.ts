// What the request journal costs (issue 13): the same emulator with the journal on (the default, 1000 entries)
// and off (journal_size: 0), interleaved, on getCurrent and the token endpoint. Target: at most 10% more CPU
// per request with it on. Both record nothing else: the refusal log line is not on these paths.
import { ADMIN_SCOPE } from '../lib/fixtures.js';
import { interleave } from '../lib/compare.js';
import { check, newResult, no5xxCheck } from '../lib/report.js';
import type { Scenario } from '../lib/scenario.js';
import { mintTokens, startEmulator, stopAll } from '../lib/servers.js';
import { settings } from '../lib/settings.js';
import type { ServerProcess } from '../lib/processes.js';
import { clientCredentialsRequest, TOKEN_PATH } from './token-endpoint.js';

const GET_CURRENT = '/api/v2/admin/users/getCurrent';

export const journal: Scenario = {
  name: 'journal',
  title: 'request journal on (journal_size 1000) versus off (0): CPU per request on getCurrent and the token endpoint',
  async run() {
    const result = newResult(this.name, this.title);
    let on: ServerProcess | undefined;
    let off: ServerProcess | undefined;
    try {
      on = await startEmulator({ journalSize: 1000 });
      off = await startEmulator({ journalSize: 0 });
      const routes = [
        { name: 'getCurrent', requests: async (server: ServerProcess) => (await mintTokens(server, 200, [ADMIN_SCOPE])).map((t) => ({ method: 'GET', path: GET_CURRENT, headers: { authorization: `Bearer ${t}` } })) },
        { name: 'token endpoint', requests: async () => [clientCredentialsRequest(TOKEN_PATH)] },
      ];
      for (const route of routes) {
        const loads = await interleave([
          { name: `${route.name}: journal on`, server: on, load: { requests: await route.requests(on), connections: settings.connections } },
          { name: `${route.name}: journal off`, server: off, load: { requests: await route.requests(off), connections: settings.connections } },
        ]);
        const [withJournal, without] = loads as [(typeof loads)[0], (typeof loads)[0]];
        result.loads.push(withJournal, without);
        no5xxCheck(result, withJournal);
        check(result, `${route.name}: CPU per request, journal on vs off`, withJournal.cpuUsPerRequest / without.cpuUsPerRequest, 'max', 1.1, 'x');
      }
    } finally {
      await stopAll([on, off]);
    }
    return result;
  },
};
