// `platform-emulator run-module`: runs a user's compute module against a running emulator, the way the
// platform would: it opens (or resets) the runtime's session, hands the module the URIs and a token file
// through the environment variables the runtime SDK reads, forwards signals, and exits with the module's code.
// One set of variables serves both runtime SDKs (docs/contracts.md §10): the TypeScript one (@palantir/compute-module)
// calls the full public URIs; the Python one (foundry-compute-modules) keeps only their paths and calls them on
// https://RUNTIME_HOST:RUNTIME_PORT, the emulator's in-pod runtime listener, trusting the CA file it is given.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { RUNTIMES_PREFIX } from './services/compute-modules/policy.js';
import { openPipeline, writePipelineFiles } from './run-module-pipeline.js';
import { describeEnvironment, openModuleEnvironment, writeEnvironmentFiles } from './run-module-environment.js';

export const DEFAULT_EMULATOR_URL = 'http://localhost:4000';

interface RunModuleOptions {
  /** Base address of the running emulator. */
  url: string;
  runtimeId: string;
  deployedAppRid?: string;
  branch?: string;
  /** Sent as a bearer token, for an emulator that listens off loopback with `control_token` set. */
  controlToken?: string;
  command: string[];
  env?: NodeJS.ProcessEnv;
  /** Where run-module's own lines go (the module's output is inherited, untouched). */
  log?: (line: string) => void;
}

export interface Session {
  runtimeId: string;
  moduleAuthToken: string;
  getJobUri: string;
  postResultUri: string;
  postSchemaUri: string;
  /** The in-pod runtime listener, when the emulator runs one. */
  podRuntime?: { host: string; port: number; restartNotificationUri: string; caCertificate: string };
}

export class RunModuleError extends Error {}

export async function openSession(options: Pick<RunModuleOptions, 'url' | 'runtimeId' | 'deployedAppRid' | 'branch' | 'controlToken'>): Promise<Session> {
  const target = `${options.url.replace(/\/+$/, '')}${RUNTIMES_PREFIX}`;
  let res: Response;
  try {
    res = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(options.controlToken ? { authorization: `Bearer ${options.controlToken}` } : {}) },
      body: JSON.stringify({ runtimeId: options.runtimeId, deployedAppRid: options.deployedAppRid, branch: options.branch }),
    });
  } catch {
    throw new RunModuleError(`cannot reach the emulator at ${options.url}; is it running (platform-emulator start)? Use --url or --config to point elsewhere.`);
  }
  const text = await res.text();
  if (res.status !== 200) {
    let detail = text;
    try {
      const body = JSON.parse(text) as Record<string, unknown>;
      detail = String(body.error_description ?? body.errorDescription ?? text);
    } catch {
      // not JSON: show it as it is
    }
    throw new RunModuleError(`the emulator at ${options.url} refused the runtime session (${res.status}): ${detail}`);
  }
  return JSON.parse(text) as Session;
}

interface ModuleFiles {
  token: string;
  serviceDiscovery: string;
  ca?: string;
}

/**
 * The environment either runtime SDK reads (MODULE_AUTH_TOKEN and the two *_CA_PATH are file paths). Neither
 * installed SDK reads the *_V2 variables (GET_JOB_URI_V2, ...), so they are not set.
 */
function moduleEnv(session: Session, files: ModuleFiles): Record<string, string> {
  const pod = session.podRuntime;
  return {
    GET_JOB_URI: session.getJobUri,
    POST_RESULT_URI: session.postResultUri,
    POST_SCHEMA_URI: session.postSchemaUri,
    MODULE_AUTH_TOKEN: files.token,
    FOUNDRY_SERVICE_DISCOVERY_V2: files.serviceDiscovery,
    ...(pod && files.ca
      ? {
          RUNTIME_HOST: pod.host,
          RUNTIME_PORT: String(pod.port),
          RESTART_NOTIFICATION_URI: pod.restartNotificationUri,
          CONNECTIONS_TO_OTHER_PODS_CA_PATH: files.ca,
          DEFAULT_CA_PATH: files.ca,
        }
      : {}),
  };
}

/**
 * Where the platform's services are, as the platform writes it for a module: YAML, a list of URLs per service.
 * Both spellings the SDKs look up (the Python platform SDK: `api-gateway` then `api_gateway`, `multipass`;
 * the TypeScript runtime SDK: `api_gateway`, `stream_proxy`). `multipass` (the OAuth base) points straight at
 * ours, so the Python SDK's ConfidentialClientAuth reaches {base}/idp/api/oauth2/token without a path alias.
 * `stream_proxy` is `{base}/stream-proxy/api`, where the platform's stream proxy sits (docs/functions.md).
 */
export function serviceDiscoveryYaml(baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  const services: Record<string, string> = { api_gateway: `${base}/api`, stream_proxy: `${base}/stream-proxy/api`, multipass: `${base}/idp/api` };
  return Object.entries(services)
    .map(([name, url]) => `${name}:\n  - ${JSON.stringify(url)}\n`)
    .join('');
}

export async function runModule(options: RunModuleOptions): Promise<number> {
  const log = options.log ?? ((line: string) => console.error(`run-module: ${line}`));
  const env = options.env ?? process.env;
  if (options.command.length === 0) throw new RunModuleError('no command given: run-module --runtime ID -- COMMAND [ARGS...]');
  if (env.NODE_ENV === 'development') log('warning: NODE_ENV=development makes the runtime SDK stay inactive (it never polls)');

  const session = await openSession(options);
  const pipeline = await openPipeline({ ...options, runtimeId: session.runtimeId });
  const environment = await openModuleEnvironment({ ...options, runtimeId: session.runtimeId });
  // A private directory (0700) and files (0600): the token is the module's credential. Removed at exit.
  const dir = mkdtempSync(join(tmpdir(), 'platform-emulator-module-'));
  const files: ModuleFiles = { token: join(dir, 'module-auth-token'), serviceDiscovery: join(dir, 'service-discovery.yml') };
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  process.once('exit', cleanup);
  try {
    writeFileSync(files.token, session.moduleAuthToken, { mode: 0o600 });
    writeFileSync(files.serviceDiscovery, serviceDiscoveryYaml(options.url), { mode: 0o600 });
    if (session.podRuntime) {
      files.ca = join(dir, 'runtime-ca.pem');
      writeFileSync(files.ca, session.podRuntime.caCertificate, { mode: 0o600 });
    }
    // Pipeline mode (docs/streams.md): the build token and the alias map, beside everything else.
    const pipelineEnv = pipeline ? writePipelineFiles(dir, pipeline) : {};
    if (pipeline) log(`pipeline mode: resources ${Object.keys(pipeline.resources).join(', ')} of ${pipeline.deployedAppRid}`);
    // Application permissions and sources (docs/functions.md, "Module environment"); it may replace DEFAULT_CA_PATH.
    const environmentEnv = writeEnvironmentFiles(dir, environment, session.podRuntime?.caCertificate);
    for (const line of describeEnvironment(environment)) log(line);
    const pod = session.podRuntime ? ` (in-pod runtime https://${session.podRuntime.host}:${session.podRuntime.port})` : '';
    log(`runtime ${session.runtimeId}: polling ${session.getJobUri}${pod}; starting ${options.command.join(' ')}`);
    // The Python platform SDK wants a hostname beside the discovery file (its clients ask for one); the
    // user's own FOUNDRY_HOSTNAME wins. The endpoints themselves come from the file, with their http scheme.
    const hostname = env.FOUNDRY_HOSTNAME ? {} : { FOUNDRY_HOSTNAME: new URL(options.url).host };
    return await runChild(options.command, { ...env, ...hostname, ...moduleEnv(session, files), ...pipelineEnv, ...environmentEnv }, log);
  } finally {
    cleanup();
    process.removeListener('exit', cleanup);
  }
}

/** Runs the command with inherited stdio, forwarding SIGINT and SIGTERM; resolves with its exit code. */
function runChild(command: string[], env: NodeJS.ProcessEnv, log: (line: string) => void): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command[0]!, command.slice(1), { stdio: 'inherit', env });
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];
    for (const signal of signals) process.on(signal, forward);
    const finish = (code: number) => {
      for (const signal of signals) process.removeListener(signal, forward);
      resolve(code);
    };
    child.once('error', (err: NodeJS.ErrnoException) => {
      log(`cannot start ${command[0]}: ${err.code === 'ENOENT' ? 'command not found' : err.message}`);
      finish(err.code === 'ENOENT' ? 127 : 126);
    });
    child.once('exit', (code, signal) => finish(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0)));
  });
}
