import { describe, expect, it } from 'vitest';
import { validateTestSeed } from './helpers/seed.js';
import { resolveSettings, isLoopbackHost } from '../src/settings.js';
import { computeModuleSettingsOf } from '../src/services/compute-modules/settings.js';

const seedWith = (platform: Record<string, unknown>) => validateTestSeed({ platform });

describe('settings', () => {
  it('defaults to port 4000 on 127.0.0.1, base URL from the bound port', () => {
    const s = resolveSettings(seedWith({}), {}, {});
    expect(s).toMatchObject({ port: 4000, host: '127.0.0.1', baseUrl: undefined, bodyLimitBytes: 1024 * 1024 });
    expect(computeModuleSettingsOf(seedWith({}))).toEqual({
      pollTimeoutMs: 2000,
      executeTimeoutMs: 300000,
      retainedJobs: 10000,
      maxResultBytes: 32 * 1024 * 1024,
      moduleGoneMs: 30000,
      maxQueuedJobs: 10000,
      maxRetainedResultBytes: 1024 * 1024 * 1024,
      podListenerPort: 0,
    });
    expect(Object.isFrozen(s)).toBe(true);
  });

  it('takes the port from --port, then PORT, then the config file', () => {
    const seed = seedWith({ port: 5000 });
    expect(resolveSettings(seed, {}, {}).port).toBe(5000);
    expect(resolveSettings(seed, {}, { PORT: '6000' }).port).toBe(6000);
    expect(resolveSettings(seed, { port: 7000 }, { PORT: '6000' }).port).toBe(7000);
    expect(() => resolveSettings(seed, {}, { PORT: 'http' })).toThrow(/PORT: "http" is not a port number/);
  });

  it('reads base_url (trailing slash removed), host and compute-module limits from the config', () => {
    const seed = seedWith({ base_url: 'https://emu.test/', host: '0.0.0.0', compute_modules: { poll_timeout_ms: 50, execute_timeout_ms: 100 } });
    const s = resolveSettings(seed, {}, {});
    expect(s.baseUrl).toBe('https://emu.test');
    expect(s.host).toBe('0.0.0.0');
    // The compute-modules service reads its own key (src/services/compute-modules/settings.ts).
    expect(computeModuleSettingsOf(seed).pollTimeoutMs).toBe(50);
    expect(computeModuleSettingsOf(seed).executeTimeoutMs).toBe(100);
  });

  it('takes the store from --store, then the config, then DATABASE_URL, else memory; never quotes a bad one', () => {
    const pg = (n: number) => `postgres://u:p@127.0.0.1:5432/db${n}`;
    expect(resolveSettings(seedWith({}), {}, {}).store).toBe('memory');
    expect(resolveSettings(seedWith({}), {}, { DATABASE_URL: pg(1) }).store).toBe(pg(1));
    expect(resolveSettings(seedWith({ store: pg(2) }), {}, { DATABASE_URL: pg(1) }).store).toBe(pg(2));
    expect(resolveSettings(seedWith({ store: pg(2) }), { store: 'memory' }, { DATABASE_URL: pg(1) }).store).toBe('memory');
    expect(() => resolveSettings(seedWith({}), { store: 'mysql://u:hunter2@h/db' }, {})).toThrow(/^store: the value is neither/);
    expect(() => resolveSettings(seedWith({}), { store: 'mysql://u:hunter2@h/db' }, {})).not.toThrow(/hunter2/);
    expect(() => validateTestSeed({ platform: { store: 'redis://x' } })).toThrow(/platform\.store/);
  });

  it('knows loopback hosts', () => {
    expect(['127.0.0.1', '127.0.0.2', '::1', 'localhost'].every(isLoopbackHost)).toBe(true);
    expect(['0.0.0.0', '10.0.0.1', '::'].some(isLoopbackHost)).toBe(false);
  });
});
