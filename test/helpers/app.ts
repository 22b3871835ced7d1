// Builds the real app in process with a manual clock; tests call it through inject(). The store is the memory
// store, or a fresh PostgreSQL schema when TEST_STORE is set (test/helpers/store.ts).
import { afterAll, afterEach, expect } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { parse } from 'yaml';
import { buildApp } from '../../src/app.js';
import { ManualClock } from '../../src/clock.js';
import { validateSeed } from '../../src/seed/load.js';
import { applySeed, type SeedSummary } from '../../src/seed/apply.js';
import { resolveSettings, type SettingOverrides } from '../../src/settings.js';
import { openTestStore } from './store.js';
import { SERVICES, seedCodecsOf, servicePartsOf } from '../../src/services/index.js';
import type { ServiceModule } from '../../src/services/service-module.js';
import type { Store } from '../../src/store/store.js';
import type { LogDestination, LogLevel } from '../../src/logger.js';

export interface TestApp {
  app: FastifyInstance;
  store: Store;
  clock: ManualClock;
  summary: SeedSummary;
}

export interface TestAppOptions extends SettingOverrides {
  /** YAML text or a parsed document with root `platform`. */
  seed?: string | Record<string, unknown>;
  logLevel?: LogLevel;
  logDestination?: LogDestination;
  /** The services to serve; the one list when omitted (a test of the seam adds a fixture's module). */
  services?: readonly ServiceModule[];
}

// Apps are closed for the test that forgot to: one built inside a test after that test, one built in a
// beforeAll after the file. Closing twice is harmless (a closed app is simply forgotten here).
const perTest = new Set<FastifyInstance>();
const perFile = new Set<FastifyInstance>();
function track(app: FastifyInstance): void {
  const set = expect.getState().currentTestName === undefined ? perFile : perTest;
  set.add(app);
  app.addHook('onClose', async () => void set.delete(app));
}
const closeAll = async (set: Set<FastifyInstance>) => {
  const apps = [...set];
  set.clear();
  await Promise.all(apps.map((app) => app.close().catch(() => undefined)));
};
afterEach(() => closeAll(perTest));
afterAll(() => closeAll(perFile));

export async function buildTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const doc = typeof options.seed === 'string' ? parse(options.seed) : (options.seed ?? {});
  const services = options.services ?? SERVICES;
  const codecs = seedCodecsOf(services);
  const seed = validateSeed(doc ?? {}, '<inline>', codecs);
  const settings = resolveSettings(seed, { port: options.port, host: options.host }, {});
  const clock = new ManualClock();
  const store = await openTestStore(servicePartsOf(services));
  const summary = await applySeed(seed, store, clock, codecs);
  const app = await buildApp({ settings, store, clock, seed, logLevel: options.logLevel, logDestination: options.logDestination, services });
  app.addHook('onClose', () => store.close());
  track(app);
  await app.ready();
  return { app, store, clock, summary };
}

/** A token for a seeded user through the control route. */
export async function mintToken(app: FastifyInstance, username = 'admin', scopes: string[] = []): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/_emulate/platform/tokens', payload: { username, scopes } });
  if (res.statusCode !== 200) throw new Error(`mint failed: ${res.statusCode} ${res.body}`);
  return res.json().access_token as string;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Asserts the platform envelope's fixed fields and returns the body. */
export function platformError(body: unknown): {
  errorCode: string;
  errorName: string;
  errorDescription: string;
  errorInstanceId: string;
  parameters: Record<string, unknown>;
} {
  const b = body as Record<string, unknown>;
  const keys = Object.keys(b).sort();
  if (keys.join(',') !== 'errorCode,errorDescription,errorInstanceId,errorName,parameters') throw new Error(`not a platform envelope: ${JSON.stringify(body)}`);
  if (!/^[0-9a-f-]{36}$/.test(String(b.errorInstanceId))) throw new Error(`errorInstanceId is not a UUID: ${String(b.errorInstanceId)}`);
  return b as ReturnType<typeof platformError>;
}
