// The directory (docs/directory.md): Users.list of 10,000 users page by page (the SDK's default page of 1,000)
// and a user's getMarkings through five levels of nested groups among 1,000 groups, each against the raw
// baseline (bench/baseline/directory.ts) in interleaved rounds.
import { postJson, request } from '../lib/http.js';
import { interleave } from '../lib/compare.js';
import { check, newResult, no5xxCheck } from '../lib/report.js';
import type { Scenario } from '../lib/scenario.js';
import { benchScript, emulatorCommand, startServer, type ServerProcess } from '../lib/processes.js';
import { stopAll } from '../lib/servers.js';
import { settings } from '../lib/settings.js';
import { writeDirectorySeed } from '../lib/directory-seed.js';
import { stableUuid } from '../../src/ids.js';

const USERS = settings.seedUsers;
const LIST = '/api/v2/admin/users';

async function token(server: ServerProcess): Promise<string> {
  const reply = await postJson(`${server.url}/_emulate/platform/tokens`, { username: 'deep', scopes: ['api:admin-read'] });
  if (reply.status !== 200) throw new Error(`mint: ${reply.status} ${reply.text()}`);
  return reply.json<{ access_token: string }>().access_token;
}

/** Every page's path, following nextPageToken from the first (bounded by the user count). */
async function pagePaths(server: ServerProcess, bearer: string): Promise<string[]> {
  const paths = [LIST];
  for (let i = 0; i < USERS; i++) {
    const reply = await request(`${server.url}${paths[paths.length - 1]}`, { headers: { authorization: bearer } });
    if (reply.status !== 200) throw new Error(`list: ${reply.status} ${reply.text().slice(0, 200)}`);
    const next = reply.json<{ nextPageToken?: string }>().nextPageToken;
    if (!next) break;
    paths.push(`${LIST}?pageToken=${encodeURIComponent(next)}`);
  }
  return paths;
}

export const directory: Scenario = {
  name: 'directory',
  title: `directory: Users.list of ${USERS.toLocaleString('en-US')} users page by page; getMarkings through 5 nested groups of 1,000`,
  async run() {
    const result = newResult(this.name, this.title);
    const seedFile = writeDirectorySeed(USERS);
    let emulator: ServerProcess | undefined;
    let baseline: ServerProcess | undefined;
    try {
      emulator = await startServer(emulatorCommand(seedFile), 120_000);
      const bearer = `Bearer ${await token(emulator)}`;
      baseline = await startServer(
        benchScript('baseline', 'bench/baseline/directory.ts', '/_emulate/health', ['--users', String(USERS), '--token', bearer.slice(7)]),
      );
      const headers = { authorization: bearer };
      const emuPages = await pagePaths(emulator, bearer);
      const basePages = await pagePaths(baseline, bearer);
      result.notes.push(`pages: emulator ${emuPages.length}, baseline ${basePages.length}`);
      check(result, 'emulator: pages to list every user', emuPages.length, 'max', basePages.length, 'pages');
      const markings = `/api/v2/admin/users/${stableUuid('user:deep')}/getMarkings`;
      for (const [what, emuPaths, basePaths] of [
        ['Users.list page', emuPages, basePages],
        ['getMarkings through 5 levels', [markings], [markings]],
      ] as const) {
        const [emu, base] = await interleave([
          {
            name: `emulator: ${what}`,
            server: emulator,
            load: { requests: emuPaths.map((path) => ({ method: 'GET', path, headers })), connections: settings.connections },
          },
          {
            name: `baseline: ${what}`,
            server: baseline,
            load: { requests: basePaths.map((path) => ({ method: 'GET', path, headers })), connections: settings.connections },
          },
        ]);
        result.loads.push(emu!, base!);
        result.metrics.push({ name: `${what}: p50`, value: emu!.p50Ms, unit: 'ms', baseline: base!.p50Ms });
        result.metrics.push({ name: `${what}: CPU per request`, value: emu!.cpuUsPerRequest, unit: 'us', baseline: base!.cpuUsPerRequest });
        check(result, `${what}: CPU per request vs baseline`, emu!.cpuUsPerRequest / base!.cpuUsPerRequest, 'max', 1.5, 'x');
        check(result, `${what}: non-200 answers`, emu!.requests - (emu!.statuses['200'] ?? 0), 'max', 0, 'responses');
        no5xxCheck(result, emu!);
      }
    } finally {
      await stopAll([emulator, baseline]);
    }
    return result;
  },
};
