// Whether a runtime's module is still there (docs/contracts.md §6): a module that has no poll in flight and started
// none for `module_gone_ms` has gone, and the jobs it was handed come back to the queue (the lease).
//
// Noticed two ways, neither a loop: when a poll arrives for a runtime that had gone (before it looks at the
// queue, so the returning module takes its own jobs back), and by one timer per runtime, armed when its last
// poll ends and cleared when the next begins. The timer runs on real time but judges by the injected clock,
// so a test moves the clock instead of sleeping; when the clock says "not yet" it re-arms for the rest.
//
// On a store shared by several instances (PostgreSQL) a module may poll another instance only; so each instance
// also records its polls in the store (`SharedPolls`: at most once a second per runtime, the last one written
// when the second is up, and every second while a poll is held), and before calling a module gone it reads the
// latest poll any instance recorded. An instance thus never takes back jobs another one handed out to a module
// that is still polling there. Correct as long as module_gone_ms is well above a second (default 30 s).
import type { Clock } from '../../clock.js';
import type { Store } from '../../store/store.js';

/** Polls recorded where every instance sees them (a shared store). */
export interface SharedPolls {
  /** A poll of `runtimeId` was seen at `at` (clock ms); the latest recorded wins. */
  note(runtimeId: string, at: number): Promise<void>;
  /** The latest poll of `runtimeId` any instance recorded. */
  last(runtimeId: string): Promise<number | undefined>;
}

/** The store's record of polls when other instances share it (PostgreSQL); none for the memory store. */
export function sharedPolls(store: Store): SharedPolls | undefined {
  if (!store.shared) return undefined;
  return { note: (runtimeId, at) => store.computeModules.notePoll(runtimeId, at), last: (runtimeId) => store.computeModules.lastPoll(runtimeId) };
}

/** Shared polls are written at most this often per runtime (clock ms; real ms for the trailing write). */
export const SHARE_EVERY_MS = 1000;

interface RuntimeLiveness {
  inFlight: number;
  /** When a poll last began or ended (clock ms). */
  lastSeen: number;
  timer?: NodeJS.Timeout;
  /** When this instance last recorded a poll in the shared store, and the timer of the next record. */
  sharedAt?: number;
  shareTimer?: NodeJS.Timeout;
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
    private readonly shared?: SharedPolls,
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
    this.share(runtimeId, state);
    if (!hadGone) return;
    // Gone by this instance's polls; maybe not by another's.
    const seen = await this.lastSeenAnywhere(runtimeId, lastSeen);
    if (now - seen >= this.goneMs) await this.onGone(runtimeId, seen);
  }

  /** A poll ended (answered, timed out, or its client left). */
  pollEnded(runtimeId: string): void {
    const state = this.runtimes.get(runtimeId);
    if (!state) return; // forgotten by a reset while the poll ran
    state.inFlight = Math.max(0, state.inFlight - 1);
    state.lastSeen = this.clock.now();
    this.share(runtimeId, state);
    if (state.inFlight === 0) this.arm(runtimeId, state, this.goneMs);
  }

  /** Whether the runtime's module has a poll in flight here, or was seen polling within module_gone_ms. */
  connected(runtimeId: string): boolean {
    const state = this.runtimes.get(runtimeId);
    return state !== undefined && (state.inFlight > 0 || this.clock.now() - state.lastSeen < this.goneMs);
  }

  /** The server is closing: forgets everything and arms no timer again. */
  close(): void {
    this.closed = true;
    this.clear();
  }

  /** Forgets every runtime and stops every timer (store reset). */
  clear(): void {
    for (const state of this.runtimes.values()) {
      if (state.timer) clearTimeout(state.timer);
      if (state.shareTimer) clearTimeout(state.shareTimer);
    }
    this.runtimes.clear();
  }

  /** Records this instance's latest poll in the shared store, throttled; held polls are recorded each second. */
  private share(runtimeId: string, state: RuntimeLiveness): void {
    if (!this.shared || this.closed || state.shareTimer) return; // a record is already due: it takes the latest
    const since = this.clock.now() - (state.sharedAt ?? -Infinity);
    if (since >= SHARE_EVERY_MS) return this.writeShared(runtimeId, state);
    state.shareTimer = setTimeout(() => {
      state.shareTimer = undefined;
      if (this.runtimes.get(runtimeId) === state && !this.closed) this.writeShared(runtimeId, state);
    }, SHARE_EVERY_MS - since);
    state.shareTimer.unref();
  }

  private writeShared(runtimeId: string, state: RuntimeLiveness): void {
    const now = this.clock.now();
    state.sharedAt = now;
    // A failed record (database briefly unreachable) is made good by the next one.
    this.shared!.note(runtimeId, state.inFlight > 0 ? now : state.lastSeen).catch(() => undefined);
    if (state.inFlight > 0) this.share(runtimeId, state); // held: record again in a second
  }

  /** The later of this instance's last sight of the module and the latest poll recorded by any instance. */
  private async lastSeenAnywhere(runtimeId: string, local: number): Promise<number> {
    if (!this.shared) return local;
    return Math.max(local, (await this.shared.last(runtimeId)) ?? -Infinity);
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
    if (this.shared) return void this.checkShared(runtimeId, state).catch((err: unknown) => this.onError(err, runtimeId));
    // Gone: nothing is armed again until a poll comes and ends. A poll arriving later finds it gone as well
    // and asks again; that finds nothing left to bring back (only jobs handed out by `lastSeen`).
    this.onGone(runtimeId, state.lastSeen).catch((err: unknown) => this.onError(err, runtimeId));
  }

  /** Gone here; gone everywhere only if no instance recorded a poll since. Else look again when it could be. */
  private async checkShared(runtimeId: string, state: RuntimeLiveness): Promise<void> {
    const seen = await this.lastSeenAnywhere(runtimeId, state.lastSeen);
    if (this.runtimes.get(runtimeId) !== state || state.inFlight > 0) return; // a poll came meanwhile
    state.lastSeen = seen;
    const elapsed = this.clock.now() - seen;
    if (elapsed < this.goneMs) return this.arm(runtimeId, state, this.goneMs - elapsed);
    await this.onGone(runtimeId, seen);
  }
}
