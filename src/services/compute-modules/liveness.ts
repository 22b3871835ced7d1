// Whether a runtime's module is still there (CONTRACTS §6): a module that has no poll in flight and started
// none for `module_gone_ms` has gone, and the jobs it was handed come back to the queue (the lease).
//
// Noticed two ways, neither a loop: when a poll arrives for a runtime that had gone (before it looks at the
// queue, so the returning module takes its own jobs back), and by one timer per runtime, armed when its last
// poll ends and cleared when the next begins. The timer runs on real time but judges by the injected clock,
// so a test moves the clock instead of sleeping; when the clock says "not yet" it re-arms for the rest.
import type { Clock } from '../../clock.js';

interface RuntimeLiveness {
  inFlight: number;
  /** When a poll last began or ended (clock ms). */
  lastSeen: number;
  timer?: NodeJS.Timeout;
}

/** Called with the runtime and the last time its module was seen: jobs handed out by then come back. */
export type OnGone = (runtimeId: string, lastSeen: number) => Promise<void>;

export class ModuleLiveness {
  private readonly runtimes = new Map<string, RuntimeLiveness>();
  private closed = false;

  constructor(
    private readonly clock: Clock,
    private readonly goneMs: number,
    private readonly onGone: OnGone,
    private readonly onError: (err: unknown, runtimeId: string) => void,
  ) {}

  /** A poll begins; if the runtime's module had gone, its jobs come back first (awaited). */
  async pollStarted(runtimeId: string): Promise<void> {
    const now = this.clock.now();
    let state = this.runtimes.get(runtimeId);
    if (!state) this.runtimes.set(runtimeId, (state = { inFlight: 0, lastSeen: now }));
    const hadGone = state.inFlight === 0 && now - state.lastSeen >= this.goneMs;
    const lastSeen = state.lastSeen;
    state.inFlight++;
    state.lastSeen = now;
    if (state.timer) clearTimeout(state.timer);
    state.timer = undefined;
    if (hadGone) await this.onGone(runtimeId, lastSeen);
  }

  /** A poll ended (answered, timed out, or its client left). */
  pollEnded(runtimeId: string): void {
    const state = this.runtimes.get(runtimeId);
    if (!state) return; // forgotten by a reset while the poll ran
    state.inFlight = Math.max(0, state.inFlight - 1);
    state.lastSeen = this.clock.now();
    if (state.inFlight === 0) this.arm(runtimeId, state, this.goneMs);
  }

  /** The server is closing: forgets everything and arms no timer again. */
  close(): void {
    this.closed = true;
    this.clear();
  }

  /** Forgets every runtime and stops every timer (store reset). */
  clear(): void {
    for (const state of this.runtimes.values()) if (state.timer) clearTimeout(state.timer);
    this.runtimes.clear();
  }

  private arm(runtimeId: string, state: RuntimeLiveness, delayMs: number): void {
    if (state.timer) clearTimeout(state.timer);
    if (this.closed) return;
    state.timer = setTimeout(() => this.check(runtimeId, state), Math.max(1, delayMs));
    state.timer.unref(); // never what keeps the process alive
  }

  private check(runtimeId: string, state: RuntimeLiveness): void {
    state.timer = undefined;
    if (this.runtimes.get(runtimeId) !== state || state.inFlight > 0) return;
    const elapsed = this.clock.now() - state.lastSeen;
    if (elapsed < this.goneMs) return this.arm(runtimeId, state, this.goneMs - elapsed);
    // Gone: nothing is armed again until a poll comes and ends. A poll arriving later finds it gone as well
    // and asks again; that finds nothing left to bring back (only jobs handed out by `lastSeen`).
    this.onGone(runtimeId, state.lastSeen).catch((err: unknown) => this.onError(err, runtimeId));
  }
}
