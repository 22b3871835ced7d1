import { describe, expect, it } from 'vitest';
import { validateTestSeed } from '../helpers/seed.js';
import { bearer, buildTestApp, mintToken, platformError } from '../helpers/app.js';
import { TEST_STORE } from '../helpers/store.js';
import { buildApp } from '../../src/app.js';
import { OffsetClock, isAdjustable, systemClock } from '../../src/clock.js';

import { resolveSettings } from '../../src/settings.js';
import { createMemoryStore } from '../../src/store/memory-store.js';
import { SERVICES, servicePartsOf } from '../../src/services/index.js';

const HOUR = 3600 * 1000;

describe('clock control route', () => {
  it('GET tells the service time', async () => {
    const { app, clock } = await buildTestApp();
    const res = await app.inject({ url: '/_emulate/platform/clock' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ now: new Date(clock.now()).toISOString() });
  });

  it('POST moves time forward, expires tokens past their lifetime and sweeps them at once', async () => {
    const { app, clock, store } = await buildTestApp();
    const old = await mintToken(app, 'admin', ['api:admin-read']);
    let res = await app.inject({ method: 'POST', url: '/_emulate/platform/clock', payload: { advanceMs: HOUR / 2 } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ now: new Date(clock.now()).toISOString(), swept: { tokens: 0, oauth: 0 } });
    const young = await mintToken(app, 'admin', ['api:admin-read']);

    res = await app.inject({ method: 'POST', url: '/_emulate/platform/clock', payload: { advanceMs: HOUR / 2 } });
    expect(res.json().swept).toEqual({ tokens: 1, oauth: 0 });
    expect(await store.tokens.countAccess()).toBe(1);
    expect((await app.inject({ url: '/idp/api/me', headers: bearer(old) })).statusCode).toBe(401);
    expect((await app.inject({ url: '/idp/api/me', headers: bearer(young) })).statusCode).toBe(200);
  });

  it('rejects moving backwards, fractions, too far and unknown fields', async () => {
    const { app, clock } = await buildTestApp();
    const before = clock.now();
    for (const payload of [{ advanceMs: -1 }, { advanceMs: 1.5 }, { advanceMs: '5' }, { advanceMs: 1e15 }, { advanceMs: 1, extra: true }, {}]) {
      const res = await app.inject({ method: 'POST', url: '/_emulate/platform/clock', payload });
      expect(res.statusCode).toBe(400);
      expect(platformError(res.json()).errorName).toBe('InvalidArgument');
    }
    expect(clock.now()).toBe(before);
  });

  it('answers 409 ClockNotAdjustable when the service was given a clock it cannot move', async () => {
    const seed = validateTestSeed({});
    const app = await buildApp({ settings: resolveSettings(seed, {}, {}), store: createMemoryStore(servicePartsOf(SERVICES)), clock: systemClock, seed });
    const res = await app.inject({ method: 'POST', url: '/_emulate/platform/clock', payload: { advanceMs: 1000 } });
    expect(res.statusCode).toBe(409);
    expect(platformError(res.json()).errorName).toBe('ClockNotAdjustable');
    await app.close();
  });
});

describe('OffsetClock', () => {
  it('is real time plus what it was advanced by', () => {
    const clock = new OffsetClock();
    expect(isAdjustable(clock)).toBe(true);
    expect(isAdjustable(systemClock)).toBe(false);
    const before = Date.now();
    clock.advance(HOUR);
    const now = clock.now();
    expect(now).toBeGreaterThanOrEqual(before + HOUR);
    expect(now).toBeLessThanOrEqual(Date.now() + HOUR);
  });
});

// The memory store's heap after a big sweep; PostgreSQL deletes the rows with one statement and holds no heap
// for them, and inserting 50,000 rows one by one would only measure the test's own set-up.
describe.skipIf(TEST_STORE !== undefined)('a big sweep (memory store only)', () => {
  it('sweeps 50,000 expired tokens at once and asks for the memory back', async () => {
    const { app, store, clock } = await buildTestApp();
    const principal = (await store.users.byUsername('admin'))!;
    const now = clock.now();
    for (let i = 0; i < 50_000; i++) {
      await store.tokens.insertAccess({ token: `t${i}`, principalId: principal.id, clientId: null, scopes: [], expiresAt: now + HOUR });
    }
    const res = await app.inject({ method: 'POST', url: '/_emulate/platform/clock', payload: { advanceMs: HOUR } });
    expect(res.json().swept).toEqual({ tokens: 50_000, oauth: 0 });
    expect(await store.tokens.countAccess()).toBe(0);
    expect('gc' in globalThis).toBe(false); // the collector is reached without exposing gc to the service's own code
  });
});
