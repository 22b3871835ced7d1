// The start banner the CLI prints once the server listens: where it is, where the dashboard is, what was
// seeded, and the warnings, in plain lines before the JSON log (which follows it on the same stdout).
import type { Settings } from './settings.js';
import { isLoopbackHost } from './settings.js';

/** `counts` is the CLI's description of what was seeded (`1 user incl. default admin, ...`). */
export function banner(url: string, counts: string, warnings: readonly string[], settings: Pick<Settings, 'host' | 'controlToken'>): string {
  const controlReachable = isLoopbackHost(settings.host) || settings.controlToken !== undefined;
  const lines = [
    `platform-emulator listening on ${url} (${counts})`,
    `  dashboard  ${url}/_emulate/ui${controlReachable ? '' : '  (off: not on loopback and no control_token)'}`,
    `  OAuth      ${url}/idp/api/oauth2/authorize, .../token  (clients use ctxPath 'idp')`,
    `  API        ${url}/api/v2`,
    `  journal    ${url}/_emulate/platform/journal  (every request, and why a refusal was refused)`,
    '  stop       Ctrl+C',
  ];
  for (const warning of warnings) lines.push(`warning: ${warning}`);
  return lines.join('\n');
}
