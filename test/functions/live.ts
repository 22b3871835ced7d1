// A live emulator seeded with an ontology and a deployed app in functions mode, and a real module (TypeScript or
// Python SDK) attached through `run-module`, for the functions tests.
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../src/index.js';
import { testStoreSpec } from '../helpers/store.js';
import { ROOT, collect, spawnCli, type CliResult } from '../helpers/cli.js';

export const PYTHON = join(ROOT, '.venv', 'bin', 'python');
export const hasPython = () => existsSync(PYTHON);

export interface LiveFunctions {
  emulator: Emulator;
  url: string;
  token(scopes?: string[]): Promise<string>;
  child: ChildProcess;
  exited: Promise<CliResult>;
  /** Resolves when the runtime holds at least `count` schemas. */
  schemas(count: number): Promise<Array<{ functionName: string }>>;
  stop(): Promise<CliResult>;
}

export const seedFor = (app: { rid: string; runtime: string; namespace: string; timeoutMs?: number; extra?: string }) => `
platform:
  users: [{ username: dev }]
  ontologies:
    - api_name: acme
      rid: ri.ontology.main.ontology.acme
      display_name: Acme
      queries:
        - { api_name: com.${app.namespace}.computemodules.shadowed, parameters: { x: integer }, output: string, result: { value: seeded wins } }
      object_types:
        - { api_name: Employee, primary_key: employeeId, properties: { employeeId: integer, fullName: string, officeId: string } }
        - { api_name: Office, primary_key: officeId, properties: { officeId: string, name: string } }
      objects:
        Office: [{ officeId: nyc, name: New York }]
        Employee: [{ employeeId: 1, fullName: Alice, officeId: nyc }]
      action_types:
        - api_name: relocateEmployee
          parameters: { employee: { type: object, objectTypeApiName: Employee }, office: string }
          function: com.${app.namespace}.computemodules.relocate
        - api_name: breakThings
          parameters: { employee: { type: object, objectTypeApiName: Employee }, what: string }
          function: com.${app.namespace}.computemodules.badEdits
    - { api_name: other, rid: ri.ontology.main.ontology.other, display_name: Other }
  compute_modules:
    poll_timeout_ms: 500
    runtimes: [{ runtime_id: ${app.runtime} }]
    deployed_apps:
      - deployed_app_rid: ${app.rid}
        runtime_id: ${app.runtime}
        functions: { namespace: ${app.namespace}, ontologies: [acme], timeout_ms: ${app.timeoutMs ?? 10000} }
${app.extra ?? ''}`;

export async function startFunctions(options: {
  seed: string;
  runtime: string;
  command: string[];
  expectSchemas: number;
  env?: NodeJS.ProcessEnv;
  /** More emulator options (a TLS listener). */
  emulator?: Omit<EmulatorOptions, 'store' | 'seed'>;
  /** Runs after the emulator starts and before the module does (connection secrets); its answer adds to the module's env. */
  beforeModule?: (emulator: Emulator) => Promise<NodeJS.ProcessEnv | void>;
}): Promise<LiveFunctions> {
  const emulator = await startEmulator({ store: testStoreSpec(), seed: options.seed, ...options.emulator });
  const url = emulator.url;
  const extraEnv = (await options.beforeModule?.(emulator)) ?? {};
  const token = async (scopes = ['api:ontologies-read']) => {
    const res = await fetch(`${url}/_emulate/platform/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'dev', scopes }),
    });
    return ((await res.json()) as { access_token: string }).access_token;
  };
  const child = spawnCli(['run-module', '--runtime', options.runtime, '--url', url, '--', ...options.command], {
    env: { ...process.env, ...options.env, ...extraEnv },
  });
  const exited = collect(child, 300_000);
  let gone: CliResult | undefined;
  void exited.then((r) => (gone = r));
  /** Bounded: 600 looks 50 ms apart, or the module's exit. */
  const schemas = async (count: number) => {
    const bearer = await token();
    for (let i = 0; i < 600; i++) {
      if (gone) throw new Error(`module exited: ${JSON.stringify(gone).slice(0, 2000)}`);
      const res = await fetch(
        `${url}/analytics-backend-multiplexer/api/module-group-multiplexer/schemas?rid=${encodeURIComponent(seedRid(options.seed))}&branch=master`,
        {
          headers: { authorization: `Bearer ${bearer}` },
        },
      );
      const list = res.status === 200 ? ((await res.json()) as Array<{ functionName: string }>) : [];
      if (list.length >= count) return list;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('the module posted no schemas within 30 s');
  };
  await schemas(options.expectSchemas);
  return {
    emulator,
    url,
    token,
    child,
    exited,
    schemas,
    async stop() {
      if (!gone) child.kill('SIGTERM');
      const result = await exited;
      await emulator.close();
      return result;
    },
  };
}

const seedRid = (seed: string) => /deployed_app_rid: (\S+)/.exec(seed)![1]!;
