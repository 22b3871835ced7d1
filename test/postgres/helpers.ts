// Several emulator instances on one PostgreSQL schema, as a team behind a load balancer would run them.
import { afterEach } from 'vitest';
import { startEmulator, type Emulator } from '../../src/index.js';
import { TEST_STORE, freshSchemaUrl } from '../helpers/store.js';

export const RUNTIMES = '/_emulate/platform/compute-modules/runtimes';
export const MUX = '/analytics-backend-multiplexer/api/module-group-multiplexer';
export const APP_RID = 'ri.foundry.main.deployed-app.shared';
export const RUNTIME = 'rt-shared';
export const MODULE_TOKEN = 'module-token-shared-0001';

export const SEED = {
  platform: {
    users: [{ username: 'alice' }],
    oauth_clients: [{ client_id: 'web', client_secret: 's3cret', redirect_uris: ['https://app.example.com/cb'] }],
    compute_modules: {
      poll_timeout_ms: 300,
      execute_timeout_ms: 15_000,
      runtimes: [{ runtime_id: RUNTIME, module_auth_token: MODULE_TOKEN }],
      deployed_apps: [{ deployed_app_rid: APP_RID, runtime_id: RUNTIME }],
    },
  },
};

/** The store of these tests: the PostgreSQL pass always sets TEST_STORE. */
export function baseUrl(): string {
  if (!TEST_STORE) throw new Error('test/postgres runs in the PostgreSQL pass only (TEST_STORE)');
  return TEST_STORE;
}

const started: Emulator[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((e) => e.close().catch(() => undefined)));
});

/** `count` instances on one fresh schema, started at the same moment (they race for the migrations); an unexpected 500 logs its stack. */
export async function instances(count: number, store = freshSchemaUrl(baseUrl())): Promise<Emulator[]> {
  const all = await Promise.all(Array.from({ length: count }, () => startEmulator({ seed: SEED, store, logLevel: 'error' })));
  started.push(...all);
  return all;
}

export async function mint(emulator: Emulator, username = 'admin', scopes: string[] = []): Promise<string> {
  const res = await fetch(`${emulator.url}/_emulate/platform/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, scopes }),
  });
  if (res.status !== 200) throw new Error(`mint: ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

export async function submit(emulator: Emulator, token: string, queryType = 'add'): Promise<string> {
  const res = await fetch(`${emulator.url}${MUX}/deployed-apps/jobs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ deployedAppRid: APP_RID, queryType, query: {} }),
  });
  if (res.status !== 200) throw new Error(`submit: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

/** One long-poll; the job id, or undefined when the hold ended with nothing. */
export async function poll(emulator: Emulator): Promise<string | undefined> {
  const res = await fetch(`${emulator.url}${RUNTIMES}/${RUNTIME}/job`, { headers: { 'module-auth-token': MODULE_TOKEN } });
  if (res.status === 204) return undefined;
  if (res.status !== 200) throw new Error(`poll: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { computeModuleJobV1: { jobId: string } }).computeModuleJobV1.jobId;
}

export async function postResult(emulator: Emulator, jobId: string, body: string): Promise<number> {
  const res = await fetch(`${emulator.url}${RUNTIMES}/${RUNTIME}/results/${jobId}`, {
    method: 'POST',
    headers: { 'module-auth-token': MODULE_TOKEN, 'content-type': 'application/octet-stream' },
    body,
  });
  await res.arrayBuffer();
  return res.status;
}

export async function status(emulator: Emulator, token: string, jobId: string): Promise<string> {
  const res = await fetch(`${emulator.url}${MUX}/jobs/${jobId}/status`, { headers: { authorization: `Bearer ${token}` } });
  return ((await res.json()) as { type: string }).type;
}
