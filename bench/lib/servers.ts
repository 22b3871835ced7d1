// Starting the servers a scenario compares, and arranging their state over HTTP as a test suite would.
import { ADMIN_SCOPE } from './fixtures.js';
import { inParallel, postJson, request } from './http.js';
import { benchScript, emulatorCommand, startServer, type ServerProcess } from './processes.js';
import { writeSeed, type SeedOptions } from './fixtures.js';

export const startEmulator = (seed: SeedOptions = {}, extra: string[] = [], entry?: string[]): Promise<ServerProcess> =>
  startServer(emulatorCommand(writeSeed(seed), extra, entry));
export const startBaseline = (): Promise<ServerProcess> => startServer(benchScript('baseline', 'bench/baseline/server.ts', '/_emulate/health'));
/** Bare Fastify doing the baseline's work: a reference row with no target (what the framework alone costs). */
export const startFastifyFloor = (): Promise<ServerProcess> => startServer(benchScript('fastify floor', 'bench/baseline/fastify.ts', '/_emulate/health'));

export const PEERS = [
  { name: 'oauth2-mock-server', script: 'bench/peers/oauth2-mock-server.ts', tokenPath: '/token' },
  { name: 'oidc-provider', script: 'bench/peers/oidc-provider.ts', tokenPath: '/token' },
] as const;

export const startPeer = (peer: (typeof PEERS)[number]): Promise<ServerProcess> =>
  startServer(benchScript(peer.name, peer.script, '/.well-known/openid-configuration'));

/** Mints `count` tokens for `username` through the control route; returns them. */
export async function mintTokens(server: ServerProcess, count: number, scopes = [ADMIN_SCOPE], username = 'admin'): Promise<string[]> {
  const tokens: string[] = [];
  await inParallel(count, 16, async () => {
    const reply = await postJson(`${server.url}/_emulate/platform/tokens`, { username, scopes });
    if (reply.status !== 200) throw new Error(`minting a token on ${server.name}: ${reply.status} ${reply.text()}`);
    tokens.push(reply.json<{ access_token: string }>().access_token);
  });
  return tokens;
}

/**
 * Whether the emulator serves a route yet: an unknown route is the platform envelope's 404 `NotFound`
 * (docs/contracts.md §1), which no route of ours answers with for a request it understands.
 */
export async function routeAvailable(server: ServerProcess, method: string, path: string): Promise<boolean> {
  const reply = await request(server.url + path, { method, headers: { 'content-type': 'application/json' }, body: method === 'GET' ? undefined : '{}' });
  if (reply.status !== 404) return true;
  try {
    return reply.json<{ errorName?: string }>().errorName !== 'NotFound';
  } catch {
    return true;
  }
}

export async function stopAll(servers: Array<ServerProcess | undefined>): Promise<void> {
  await Promise.all(servers.map((s) => s?.stop()));
}
