// The token endpoint, client credentials with Basic auth: emulator, raw baseline and two peer servers.
import { ADMIN_SCOPE, CLIENT_ID, CLIENT_SECRET } from '../lib/fixtures.js';
import { interleave, type Subject } from '../lib/compare.js';
import { basicAuth } from '../lib/http.js';
import { check, newResult, no5xxCheck } from '../lib/report.js';
import { ROUTE_MISSING, type Scenario } from '../lib/scenario.js';
import { PEERS, routeAvailable, startBaseline, startEmulator, startFastifyFloor, startPeer, stopAll } from '../lib/servers.js';
import { settings } from '../lib/settings.js';
import type { ServerProcess } from '../lib/processes.js';

export const TOKEN_PATH = '/idp/api/oauth2/token';

export const clientCredentialsRequest = (path: string) => ({
  method: 'POST',
  path,
  headers: { authorization: basicAuth(CLIENT_ID, CLIENT_SECRET), 'content-type': 'application/x-www-form-urlencoded' },
  body: `grant_type=client_credentials&scope=${encodeURIComponent(ADMIN_SCOPE)}`,
});

export const tokenEndpoint: Scenario = {
  name: 'token-endpoint',
  title: `POST ${TOKEN_PATH}, client credentials with Basic auth, against the baseline and peers`,
  async run() {
    const result = newResult(this.name, this.title);
    const started: ServerProcess[] = [];
    try {
      const emulator = await startEmulator();
      started.push(emulator);
      if (!(await routeAvailable(emulator, 'POST', TOKEN_PATH))) return { ...result, skipped: ROUTE_MISSING };
      const baseline = await startBaseline();
      const floor = await startFastifyFloor();
      started.push(baseline, floor);
      const subjects: Subject[] = [
        { name: 'emulator', server: emulator, load: { requests: [clientCredentialsRequest(TOKEN_PATH)], connections: settings.connections } },
        { name: 'baseline', server: baseline, load: { requests: [clientCredentialsRequest(TOKEN_PATH)], connections: settings.connections } },
        { name: floor.name, server: floor, load: { requests: [clientCredentialsRequest(TOKEN_PATH)], connections: settings.connections } },
      ];
      for (const peer of PEERS) {
        const server = await startPeer(peer);
        started.push(server);
        subjects.push({ name: peer.name, server, load: { requests: [clientCredentialsRequest(peer.tokenPath)], connections: settings.connections } });
      }
      result.loads = await interleave(subjects);
      const by = (name: string) => result.loads.find((l) => l.subject === name)!;
      const emu = by('emulator');
      const base = by('baseline');
      const fastestPeer = Math.max(...PEERS.map((p) => by(p.name).rps));
      check(result, 'CPU per request vs baseline', emu.cpuUsPerRequest / base.cpuUsPerRequest, 'max', 1.2, 'x');
      check(result, 'throughput vs baseline', emu.rps / base.rps, 'min', 0.7, 'x');
      check(result, 'throughput vs fastest peer', emu.rps / fastestPeer, 'min', 2, 'x');
      no5xxCheck(result, emu);
      check(result, 'emulator: non-200 answers', emu.requests - (emu.statuses['200'] ?? 0), 'max', 0, 'responses');
      for (const p of PEERS) if ((by(p.name).statuses['200'] ?? 0) === 0) result.notes.push(`${p.name} answered no 200: its numbers measure errors`);
    } finally {
      await stopAll(started);
    }
    return result;
  },
};
