// The start banner: readable lines (URL, dashboard, counts, warnings) before the first JSON log line.
import { describe, expect, it } from 'vitest';
import { collect, spawnCli, waitForLine } from '../helpers/cli.js';
import { banner } from '../../src/banner.js';

describe('start banner', () => {
  it('comes before the JSON log, with the dashboard URL and the warnings', async () => {
    const child = spawnCli(['--port', '0']);
    const done = collect(child);
    await waitForLine(child, /Server listening/);
    child.kill('SIGTERM');
    const { stdout, code } = await done;
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    const firstJson = lines.findIndex((l) => l.startsWith('{'));
    const head = lines.slice(0, firstJson);
    expect(head[0]).toMatch(/^platform-emulator listening on http:\/\/localhost:\d+ \(1 user incl\. default admin\)/);
    const url = /(http:\/\/localhost:\d+)/.exec(head[0]!)![1];
    expect(head).toContain(`  dashboard  ${url}/_emulate/ui`);
    expect(head.some((l) => l.startsWith('warning: no oauth_clients seeded'))).toBe(true);
    expect(JSON.parse(lines[firstJson]!).msg).toMatch(/^Server listening at/);
  });

  it('says when the dashboard cannot answer', () => {
    const text = banner('http://example.test:4000', '1 user', [], { host: '0.0.0.0', controlToken: undefined });
    expect(text).toContain('dashboard  http://example.test:4000/_emulate/ui  (off: not on loopback and no control_token)');
    expect(banner('http://x', '1 user', [], { host: '0.0.0.0', controlToken: 't' })).not.toContain('(off');
  });
});
