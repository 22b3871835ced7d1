// Time is injected so that expiry (codes, tokens, jobs) is tested by moving a clock, never by sleeping.

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that a running service can be told to move forward (POST /_emulate/platform/clock). */
interface AdjustableClock extends Clock {
  advance(ms: number): void;
}

export const isAdjustable = (clock: Clock): clock is AdjustableClock => typeof (clock as Partial<AdjustableClock>).advance === 'function';

/** The service's default clock: real time plus an offset that only grows, so tests can jump past expiries. */
export class OffsetClock implements AdjustableClock {
  private offsetMs = 0;
  now(): number {
    return Date.now() + this.offsetMs;
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

/** A clock that moves only when told to; for tests and benchmarks. */
export class ManualClock implements AdjustableClock {
  constructor(private current = Date.parse('2026-01-01T00:00:00Z')) {}
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}
