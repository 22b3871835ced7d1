#!/usr/bin/env node
// Command-line front: start (default), init and run-module. Each command parses its own flags; --help documents them.
import { parseArgs } from 'node:util';
import { existsSync, writeFileSync } from 'node:fs';
import { closeOnSignals, startServer } from './main.js';
import { ConfigFileUnreadable, SeedError, loadSeedFile } from './seed/load.js';
import { SERVICES, seedCodecsOf } from './services/index.js';
import { STARTER_CONFIG } from './starter-config.js';
import { defaultDataDir, parsePort, resolveSettings } from './settings.js';
import { LOG_LEVELS, type LogLevel } from './logger.js';
import { stdoutLines } from './log-sink.js';
import type { SeedSummary } from './seed/apply.js';
import { describeStoreUrl } from './store/postgres/url.js';
import { banner } from './banner.js';
import { announceReady } from './cli-ready.js';
import { caCertificatePath, persistentCa } from './tls/ca-store.js';

const HELP = `platform-emulator: a local stand-in for the data platform's OAuth, admin, connectivity,
ontology and compute-module APIs.

Usage:
  platform-emulator [start] [--config FILE] [--port N] [--https-port N] [--host H] [--store S]
                           [--log-level L] [--import FILE [--allow-missing-secrets]] [--export-on-exit FILE]
  platform-emulator init [FILE] [--force]
  platform-emulator ca
  platform-emulator run-module --runtime ID [--url URL | --config FILE] [--deployed-app RID [--branch B]]
                               -- COMMAND [ARGS...]
  platform-emulator --help

Commands:
  start       Serve the emulator (the default command).
  init        Write a commented starter config seeding every entity type
              (default FILE: platform-emulator.yaml; --force overwrites).
  ca          Print the path of the TLS listener's CA certificate (made there if missing), the file
              a client trusts: REQUESTS_CA_BUNDLE=... for Python, NODE_EXTRA_CA_CERTS=... for Node.
              Kept in PLATFORM_EMULATOR_DATA_DIR, else $XDG_DATA_HOME/platform-emulator, else
              ~/.local/share/platform-emulator, and reused by every start.
  run-module  Run a compute module against a running emulator: opens (or resets) the runtime's
              session, writes its module auth token to a private temporary file, and starts
              COMMAND with GET_JOB_URI, POST_RESULT_URI, POST_SCHEMA_URI and MODULE_AUTH_TOKEN
              (the token file's path) set; for Python modules also RUNTIME_HOST, RUNTIME_PORT and
              RESTART_NOTIFICATION_URI (the HTTPS in-pod runtime), CONNECTIONS_TO_OTHER_PODS_CA_PATH
              and DEFAULT_CA_PATH (its CA file), FOUNDRY_SERVICE_DISCOVERY_V2 and FOUNDRY_HOSTNAME;
              for a deployed app with client_id or sources, CLIENT_ID, CLIENT_SECRET,
              SOURCE_CREDENTIALS and SOURCE_CONFIGURATIONS_PATH (docs/functions.md).
              Forwards SIGINT/SIGTERM; exits with COMMAND's code.

Options for start:
  -c, --config FILE   YAML seed file, root key \`platform\` (also PLATFORM_EMULATOR_CONFIG).
                      Without one: in-memory store with a default admin user, open OAuth mode.
  -p, --port N        Port; without it PORT, else the config's \`port\`, else 4000 (0 picks a free port).
      --https-port N  Also serve every route over TLS on this port (else the config's \`https_port\`;
                      0 picks a free port), with a certificate for localhost, 127.0.0.1 and ::1 signed by
                      the CA that \`platform-emulator ca\` names. For tools that speak only https.
      --host H        Address to bind (default 127.0.0.1). Control routes answer off loopback only
                      with the config's \`control_token\`.
      --store S       memory (default) or postgres://USER:PASSWORD@HOST:PORT/DB: state in PostgreSQL,
                      kept across restarts and shared by every instance on it (also the config's
                      \`store\`, else DATABASE_URL).
      --log-level L   fatal, error, warn, info (default), debug (adds a line per request), trace, silent.
      --import FILE   Start from a state export (GET /_emulate/platform/state, or --export-on-exit):
                      its entities replace the config's of the same key; settings stay the config's.
                      An export that left secrets out is refused unless --allow-missing-secrets is given.
      --allow-missing-secrets
                      Accept an --import whose secrets were left out (clients become public, runtimes
                      get new module auth tokens).
      --export-on-exit FILE
                      On SIGTERM/SIGINT, write the state there before closing (YAML; JSON for .json),
                      secrets included, mode 0600.
  -h, --help          Show this help.

Options for run-module:
      --runtime ID        The runtime to serve (created when the emulator does not know it).
      --url URL           The emulator's address (default: from --config, else PLATFORM_EMULATOR_URL,
                          else http://localhost:4000).
  -c, --config FILE       Take the address (base_url, else localhost and the config's port) and the
                          control_token from the emulator's config file.
      --deployed-app RID  Also bind this deployed app (and --branch, default master) to the runtime.

Exit codes: 0 after a clean shutdown (SIGTERM/SIGINT), 2 for a bad command line or config, 1 otherwise.`;

export async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === 'init') return init(rest);
  if (first === 'ca') return caCommand(rest);
  if (first === 'run-module') return runModuleCommand(rest);
  if (first === 'start') return start(rest);
  return start(argv);
}

async function start(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      config: { type: 'string', short: 'c' },
      port: { type: 'string', short: 'p' },
      'https-port': { type: 'string' },
      host: { type: 'string' },
      store: { type: 'string' },
      'log-level': { type: 'string' },
      import: { type: 'string' },
      'export-on-exit': { type: 'string' },
      'allow-missing-secrets': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) return printHelp();
  const logLevel = (values['log-level'] ?? 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) throw new UsageError(`--log-level: "${logLevel}" is not one of ${LOG_LEVELS.join(', ')}`);
  const server = await saying(
    values.config !== undefined ? '--config' : 'PLATFORM_EMULATOR_CONFIG',
    startServer({
      configFile: values.config ?? (process.env.PLATFORM_EMULATOR_CONFIG || undefined),
      port: values.port !== undefined ? parsePort(values.port, '--port') : undefined,
      httpsPort: values['https-port'] !== undefined ? parsePort(values['https-port'], '--https-port') : undefined,
      host: values.host,
      store: values.store,
      importFile: values.import,
      allowMissingSecrets: values['allow-missing-secrets'],
      logLevel,
      env: process.env,
    }),
  );
  // Handlers first: a supervisor that signals as soon as it reads the line below must get a graceful close.
  closeOnSignals(server, undefined, values['export-on-exit']);
  // The banner first, then the JSON log lines that start-up queued (stdoutLines holds them for a few ms).
  console.log(banner(server.url, describe(server.summary), server.summary.warnings, server.settings, server.https));
  if (server.settings.store !== 'memory') console.log(`store: ${describeStoreUrl(server.settings.store)}`);
  stdoutLines.flush();
  announceReady();
  return new Promise<number>(() => undefined); // runs until a signal closes it
}

/**
 * `2 users incl. default admin, 1 oauth client, ...`: what each service's seed codec counts, in list order. Kinds
 * with none are left out: a dozen services would otherwise make a line of zeros.
 */
function describe(s: SeedSummary): string {
  return s.counts
    .filter(({ count }) => count > 0)
    .map(({ one, many, count, note }) => `${count} ${count === 1 ? one : many}${note ? ` ${note}` : ''}`)
    .join(', ');
}

/** `platform-emulator ca`: the CA file's path, the CA made first when the data directory has none. */
async function caCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { help: { type: 'boolean', short: 'h' } } });
  if (values.help) return printHelp();
  const dataDir = defaultDataDir(process.env);
  await persistentCa(dataDir);
  console.log(caCertificatePath(dataDir));
  return 0;
}

function init(args: string[]): number {
  const { values, positionals } = parseArgs({ args, options: { force: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, allowPositionals: true });
  if (values.help) return printHelp();
  const file = positionals[0] ?? 'platform-emulator.yaml';
  if (existsSync(file) && !values.force) throw new UsageError(`${file} exists; pass --force to overwrite it`);
  writeFileSync(file, STARTER_CONFIG);
  console.log(`wrote ${file}; start with: platform-emulator --config ${file}`);
  return 0;
}

async function runModuleCommand(args: string[]): Promise<number> {
  const split = args.indexOf('--');
  const { values } = parseArgs({
    args: split >= 0 ? args.slice(0, split) : args,
    options: {
      runtime: { type: 'string' },
      url: { type: 'string' },
      config: { type: 'string', short: 'c' },
      'deployed-app': { type: 'string' },
      branch: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) return printHelp();
  if (!values.runtime) throw new UsageError('run-module: --runtime ID is required');
  const command = split >= 0 ? args.slice(split + 1) : [];
  if (command.length === 0) throw new UsageError("run-module: give the module's command after --, e.g. -- node my-module.js");
  if (values.url && values.config) throw new UsageError('run-module: give --url or --config, not both');
  if (values.branch && !values['deployed-app']) throw new UsageError('run-module: --branch goes with --deployed-app');
  // Loaded for this command only: a start never runs it, and its modules stay out of a start's evaluation.
  const { DEFAULT_EMULATOR_URL, RunModuleError, runModule } = await import('./run-module.js');
  let url = values.url ?? (process.env.PLATFORM_EMULATOR_URL || DEFAULT_EMULATOR_URL);
  let controlToken: string | undefined;
  if (values.config) {
    // The same resolution as `start` (PORT over the config's port, base_url without a trailing slash).
    const settings = resolveSettings(await saying('--config', loadSeedFile(values.config, seedCodecsOf(SERVICES))), {}, process.env);
    url = settings.baseUrl ?? `http://localhost:${settings.port}`;
    controlToken = settings.controlToken;
  }
  try {
    return await runModule({ url, runtimeId: values.runtime, deployedAppRid: values['deployed-app'], branch: values.branch, controlToken, command });
  } catch (err) {
    if (err instanceof RunModuleError) {
      console.error(`platform-emulator run-module: ${err.message}`);
      return 1;
    }
    throw err;
  }
}

/** An unreadable config file's message also says where its path came from, and what to do when it is missing. */
function saying<T>(origin: string, promise: Promise<T>): Promise<T> {
  return promise.catch((err: unknown) => {
    if (err instanceof ConfigFileUnreadable) {
      err.message += ` (the path given by ${origin})`;
      if (err.missing) err.message += `. Check the path, or write a starter config there with: platform-emulator init ${err.source}`;
    }
    throw err;
  });
}

function printHelp(): number {
  console.log(HELP);
  return 0;
}

class UsageError extends Error {}

function isUsageProblem(err: unknown): boolean {
  return err instanceof UsageError || err instanceof RangeError || (err instanceof Error && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS'));
}

async function run(): Promise<void> {
  try {
    process.exitCode = await main(process.argv.slice(2));
  } catch (err) {
    if (err instanceof SeedError) {
      console.error(`platform-emulator: ${err.message}`);
      process.exit(2);
    }
    if (isUsageProblem(err)) {
      console.error(`platform-emulator: ${(err as Error).message}\nRun platform-emulator --help for usage.`);
      process.exit(2);
    }
    console.error(`platform-emulator: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}

void run();
