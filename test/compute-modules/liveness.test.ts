// The module-gone check (liveness.ts) on its own, with fake timers: one timer per runtime, judged by the
// injected clock, re-armed (never spun) while the clock says "not yet".
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { ModuleLiveness } from '../../src/services/compute-modules/liveness.js';

afterEach(() => vi.useRealTimers());

function setUp(goneMs = 1_000) {
  vi.useFakeTimers();
  const clock = new ManualClock();
  const gone: Array<[string, number]> = [];
  const liveness = new ModuleLiveness(
    clock,
    goneMs,
    async (runtimeId, lastSeen) => void gone.push([runtimeId, lastSeen]),
    () => undefined,
  );
  return { clock, gone, liveness };
}

describe('module liveness', () => {
  it('a runtime whose last poll ended module_gone_ms ago by the clock has gone: one call, then no timer left', async () => {
    const { clock, gone, liveness } = setUp();
    await liveness.pollStarted('rt');
    clock.advance(10);
    liveness.pollEnded('rt');
    const endedAt = clock.now();
    expect(vi.getTimerCount()).toBe(1);
    clock.advance(1_000);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(gone).toEqual([['rt', endedAt]]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('while the clock stands still the timer re-arms once per period, never spinning, and calls nothing', async () => {
    const { gone, liveness } = setUp();
    await liveness.pollStarted('rt');
    liveness.pollEnded('rt');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(gone).toEqual([]);
    expect(vi.getTimerCount()).toBe(1);
  });

  it('a poll in flight keeps it alive; the next poll after the period finds it gone before it looks', async () => {
    const { clock, gone, liveness } = setUp();
    await liveness.pollStarted('rt');
    await liveness.pollStarted('rt');
    liveness.pollEnded('rt'); // one still in flight: no timer
    expect(vi.getTimerCount()).toBe(0);
    clock.advance(5_000);
    await liveness.pollStarted('rt');
    expect(gone).toEqual([]);
    liveness.pollEnded('rt');
    liveness.pollEnded('rt');
    const lastSeen = clock.now();
    clock.advance(1_000);
    await liveness.pollStarted('rt'); // before the timer fires
    expect(gone).toEqual([['rt', lastSeen]]);
    expect(vi.getTimerCount()).toBe(0);
    liveness.clear();
  });
});
