// The bench harness starts its servers and measures them; this checks the plumbing with a tiny run and
// asserts nothing about speed (speed targets are the bench's printed verdicts, never a test).
import { afterAll, describe, expect, it } from 'vitest';
import { interleave } from '../../bench/lib/compare.js';
import { ADMIN_SCOPE } from '../../bench/lib/fixtures.js';
import { request } from '../../bench/lib/http.js';
import { stats } from '../../bench/lib/latency.js';
import { runLoad } from '../../bench/lib/load.js';
import { cpuMicros, rssBytes } from '../../bench/lib/proc.js';
import { FROM_SOURCE, type ServerProcess } from '../../bench/lib/processes.js';
import { check, formatResult, newResult } from '../../bench/lib/report.js';
import { mintTokens, routeAvailable, startBaseline, startEmulator, stopAll } from '../../bench/lib/servers.js';

const PATH = '/api/v2/admin/users/getCurrent';
const started: ServerProcess[] = [];
afterAll(() => stopAll(started));

describe('bench harness', () => {
  it('starts the baseline and the emulator, loads both, and reports the run', async () => {
    const [emulator, baseline] = await Promise.all([startEmulator({}, [], FROM_SOURCE), startBaseline()]);
    started.push(emulator, baseline);

    for (const server of [emulator, baseline]) {
      const [token] = await mintTokens(server, 1, [ADMIN_SCOPE]);
      expect((await request(server.url + PATH, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
      expect((await request(server.url + PATH)).status).toBe(401);
      expect(cpuMicros(server.pid)).toBeGreaterThan(0);
      expect(rssBytes(server.pid)).toBeGreaterThan(1024 * 1024);
    }

    const [token] = await mintTokens(baseline, 1, [ADMIN_SCOPE]);
    const run = await runLoad(baseline, {
      requests: [{ method: 'GET', path: PATH, headers: { authorization: `Bearer ${token}` } }],
      amount: 50,
      connections: 2,
    });
    expect(run.statuses).toEqual({ '200': 50 });
    expect(run.requests).toBe(50);
    expect(run.errors).toBe(0);

    const tokens = await Promise.all([emulator, baseline].map((s) => mintTokens(s, 5, [ADMIN_SCOPE])));
    const loads = await interleave(
      [emulator, baseline].map((server, i) => ({
        name: server.name,
        server,
        load: { requests: tokens[i]!.map((t) => ({ method: 'GET', path: PATH, headers: { authorization: `Bearer ${t}` } })), connections: 2 },
      })),
      1,
      0.3,
    );
    expect(loads.map((l) => l.subject)).toEqual(['emulator', 'baseline']);
    for (const l of loads) expect(Object.keys(l.statuses)).toEqual(['200']);

    const result = newResult('smoke', 'tiny run');
    result.loads = loads;
    check(result, 'always passes', 1, 'max', 1, 'x');
    const text = formatResult(result);
    expect(text).toMatch(/^emulator\s/m);
    expect(text).toMatch(/^baseline\s/m);
    expect(text).toContain('PASS  always passes');
  });

  it('summarises more latency samples than a spread into Math.max could take', () => {
    const times = Array.from({ length: 300_000 }, (_, i) => (i * 7919) % 300_000);
    expect(stats(times)).toEqual({ samples: 300_000, p50Ms: 149_999, p99Ms: 296_999, maxMs: 299_999 });
  });

  it('tells a missing route from one that exists', async () => {
    const emulator = started[0]!;
    expect(await routeAvailable(emulator, 'GET', PATH)).toBe(true);
    expect(await routeAvailable(emulator, 'POST', '/no/such/route')).toBe(false);
  });
});
