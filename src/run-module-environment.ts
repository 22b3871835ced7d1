// run-module's module environment (docs/functions.md, "Module environment"): for a deployed app with `client_id`
// or `sources`, the emulator hands the application-permissions client and the sources' contents; run-module
// gives CLIENT_ID / CLIENT_SECRET as variables (both SDKs read them so) and writes SOURCE_CREDENTIALS and
// SOURCE_CONFIGURATIONS_PATH as files, mode 0600 in run-module's private folder. When the emulator runs its TLS
// listener, DEFAULT_CA_PATH becomes a bundle that trusts it beside the in-pod runtime's CA: the Python SDK's
// `oauth(hostname, scopes)` speaks HTTPS with that file. No secret value is logged.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MODULE_ENVIRONMENT_ROUTE } from './services/functions/environment/backstage.js';

export interface ModuleEnvironmentAnswer {
  deployedAppRid?: string;
  client?: { clientId: string; clientSecret: string };
  sources?: { credentials: Record<string, unknown>; configurations: Record<string, unknown> };
  warnings?: string[];
  trust?: { url: string; caCertificate: string };
}

/** The app's environment; `{}` when it has none, or the emulator predates the route. */
export async function openModuleEnvironment(options: {
  url: string;
  runtimeId: string;
  deployedAppRid?: string;
  branch?: string;
  controlToken?: string;
}): Promise<ModuleEnvironmentAnswer> {
  const res = await fetch(`${options.url.replace(/\/+$/, '')}${MODULE_ENVIRONMENT_ROUTE}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(options.controlToken ? { authorization: `Bearer ${options.controlToken}` } : {}) },
    body: JSON.stringify({ runtimeId: options.runtimeId, deployedAppRid: options.deployedAppRid, branch: options.branch }),
  });
  if (res.status === 404) return {};
  // The answer may hold secrets: an error shows the status only.
  if (res.status !== 200) throw new Error(`the emulator refused the module environment (${res.status})`);
  return (await res.json()) as ModuleEnvironmentAnswer;
}

/**
 * Writes the files and answers the variables. `podCa` is the in-pod runtime's CA (already the module's
 * DEFAULT_CA_PATH); with the emulator's TLS CA, DEFAULT_CA_PATH becomes a bundle of both.
 */
export function writeEnvironmentFiles(dir: string, answer: ModuleEnvironmentAnswer, podCa: string | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  if (answer.client) {
    env.CLIENT_ID = answer.client.clientId;
    env.CLIENT_SECRET = answer.client.clientSecret;
  }
  if (answer.sources) {
    env.SOURCE_CREDENTIALS = join(dir, 'source-credentials.json');
    env.SOURCE_CONFIGURATIONS_PATH = join(dir, 'source-configurations.json');
    writeFileSync(env.SOURCE_CREDENTIALS, JSON.stringify(answer.sources.credentials), { mode: 0o600 });
    writeFileSync(env.SOURCE_CONFIGURATIONS_PATH, JSON.stringify(answer.sources.configurations), { mode: 0o600 });
  }
  if (answer.trust) {
    env.DEFAULT_CA_PATH = join(dir, 'default-ca-bundle.pem');
    const pems = [podCa, answer.trust.caCertificate].filter((p): p is string => p !== undefined).map((p) => p.trimEnd() + '\n');
    writeFileSync(env.DEFAULT_CA_PATH, pems.join(''), { mode: 0o600 });
  }
  return env;
}

/** What run-module says about it: names only. */
export function describeEnvironment(answer: ModuleEnvironmentAnswer): string[] {
  const lines = (answer.warnings ?? []).map((w) => `warning: ${w}`);
  const parts = [
    ...(answer.client ? [`application permissions of client ${answer.client.clientId} (CLIENT_ID, CLIENT_SECRET)`] : []),
    ...(answer.sources ? [`sources ${Object.keys(answer.sources.credentials).join(', ') || '(none)'} (SOURCE_CREDENTIALS, SOURCE_CONFIGURATIONS_PATH)`] : []),
    ...(answer.trust ? [`DEFAULT_CA_PATH also trusts ${answer.trust.url}`] : []),
  ];
  if (parts.length > 0) lines.push(`module environment${answer.deployedAppRid ? ` of ${answer.deployedAppRid}` : ''}: ${parts.join('; ')}`);
  return lines;
}
