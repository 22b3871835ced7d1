// Tests generated from the one list of services (docs/architecture.md, "Adding an API"): every seed key of every
// service has an example, is restored by a reset, and round-trips through the state export; every store part
// is emptied by a clear. A service added to the list without these fails here, not in a reader's memory.
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { SERVICES } from '../../src/services/index.js';
import { exportState } from '../../src/seed/export.js';
import { seedCodecsOf } from '../../src/services/seed-codecs.js';

const codecs = seedCodecsOf(SERVICES);
let apps: TestApp[] = [];
afterEach(async () => {
  await Promise.all(apps.map((t) => t.app.close()));
  apps = [];
});

async function app(platform: Record<string, unknown>): Promise<TestApp> {
  const t = await buildTestApp({ seed: { platform } });
  apps.push(t);
  return t;
}

/** Every service's example together: an example may name another's (a function's deployed app). */
const EXAMPLES = Object.fromEntries(codecs.map((c) => [c.key, c.example]));

async function exported(t: TestApp, key: string): Promise<unknown> {
  return (await exportState(t.store, codecs, { secrets: true })).platform[key];
}

describe('every service in the list', () => {
  it('has a name, and its seed keys and store parts are unique across the list', () => {
    const names = SERVICES.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    const keys = codecs.map((c) => c.key);
    expect(new Set(keys).size).toBe(keys.length);
    const parts = SERVICES.flatMap((s) => s.store ?? []).map((p) => p.name);
    expect(new Set(parts).size).toBe(parts.length);
    const tables = SERVICES.flatMap((s) => s.store ?? []).flatMap((p) => p.tables);
    expect(new Set(tables).size).toBe(tables.length);
  });

  for (const codec of codecs) {
    describe(`seed key ${codec.key}`, () => {
      it('has an example that the loader accepts beside the others', async () => {
        expect(codec.example, `${codec.key} needs an example part (SeedCodec.example)`).toBeDefined();
        await app(EXAMPLES);
      });

      it('is emptied by a clear and restored by a reset', async () => {
        const t = await app(EXAMPLES);
        const seeded = await exported(t, codec.key);
        const empty = await exported(await app({}), codec.key);
        expect(seeded, 'the example should hold more than an empty seed').not.toEqual(empty);
        await t.store.clear();
        expect(await exported(t, codec.key)).not.toEqual(seeded);
        await t.app.resetToSeed();
        expect(await exported(t, codec.key)).toEqual(seeded);
      });

      it('round-trips through the state export: export, start from it, export again gives the same part', async () => {
        const whole = (await exportState((await app(EXAMPLES)).store, codecs, { secrets: true })).platform;
        const again = await app(whole);
        expect(await exported(again, codec.key)).toEqual(whole[codec.key]);
      });
    });
  }
});
