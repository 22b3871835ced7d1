// The start banner the CLI prints once the server listens: where it is, where the dashboard is, what was
// seeded, and the warnings, in plain lines before the JSON log (which follows it on the same stdout).
import type { Settings } from './settings.js';
import { isLoopbackHost } from './settings.js';

/** `counts` is the CLI's description of what was seeded (`1 user incl. default admin, ...`). */
export function banner(
  url: string,
  counts: string,
  warnings: readonly string[],
  settings: Pick<Settings, 'host' | 'controlToken'>,
  https?: { url: string; caFile: string },
): string {
  const controlReachable = isLoopbackHost(settings.host) || settings.controlToken !== undefined;
  const lines = [
    `platform-emulator listening on ${url} (${counts})`,
    `  dashboard  ${url}/_emulate/ui${controlReachable ? '' : '  (off: not on loopback and no control_token)'}`,
    `  OAuth      ${url}/idp/api/oauth2/authorize, .../token  (clients use ctxPath 'idp')`,
    `  API        ${url}/api/v2`,
    `  journal    ${url}/_emulate/platform/journal  (every request, and why a refusal was refused)`,
  ];
  if (https) {
    // The one line that makes Python (requests, httpx, the platform SDK) and Node trust the TLS listener.
    lines.push(`  https      ${https.url}  (same routes, over TLS: for tools that speak only https)`);
    const file = shellWord(https.caFile);
    lines.push(`  trust      export REQUESTS_CA_BUNDLE=${file} NODE_EXTRA_CA_CERTS=${file}`);
  }
  lines.push('  stop       Ctrl+C');
  for (const warning of warnings) lines.push(`warning: ${warning}`);
  return lines.join('\n');
}

/** A path as one shell word: as it is when plain, else single-quoted. */
const shellWord = (text: string): string => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`);
