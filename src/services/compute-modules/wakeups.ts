// Event-driven waiting (DESIGN principle 7): a waiter registers interest in a key and sleeps until someone
// notifies that key, its time runs out, its client goes away, the store is reset or the server closes.
// No timer ever fires to look for work; the only timer is the end of the hold. `notify` wakes every waiter of
// a key (a session reset ends all its polls); `notifyOne` wakes one (a queued job is for one poll).

export type Wake<T> = { kind: 'notified'; value: T } | { kind: 'timeout' } | { kind: 'aborted' } | { kind: 'reset' } | { kind: 'shutdown' };

export interface Subscription<T> {
  /** Resolves once, with the first thing that happens. */
  readonly wake: Promise<Wake<T>>;
  /** Stops waiting (resolves `wake` as aborted if it had not resolved). */
  cancel(): void;
}

type Settle<T> = (wake: Wake<T>) => void;

export class Wakeups<T> {
  private waiting = new Map<string, Set<Settle<T>>>();
  private closed = false;

  /**
   * Registers now: whatever is notified from here on wakes this waiter; anything notified earlier is the
   * caller's to have seen (an execute subscribes before its job exists; a poll checks a count, see jobs.ts).
   * `timeoutMs` bounds the wait; `signal` ends it when the client disconnects.
   */
  subscribe(key: string, timeoutMs: number, signal?: AbortSignal): Subscription<T> {
    let settle!: Settle<T>;
    const wake = new Promise<Wake<T>>((resolve) => (settle = resolve));
    if (this.closed) {
      settle({ kind: 'shutdown' });
      return { wake, cancel: () => undefined };
    }
    let set = this.waiting.get(key);
    if (!set) this.waiting.set(key, (set = new Set()));
    const members = set;
    const timer = setTimeout(() => done({ kind: 'timeout' }), Math.max(0, timeoutMs));
    const onAbort = () => done({ kind: 'aborted' });
    const done: Settle<T> = (result) => {
      if (!members.delete(done)) return;
      if (members.size === 0 && this.waiting.get(key) === members) this.waiting.delete(key);
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      settle(result);
    };
    members.add(done);
    if (signal?.aborted) done({ kind: 'aborted' });
    else signal?.addEventListener('abort', onAbort, { once: true });
    return { wake, cancel: () => done({ kind: 'aborted' }) };
  }

  /** Wakes every waiter of `key`; each looks again for itself (one of them may find nothing). */
  notify(key: string, value: T): void {
    const members = this.waiting.get(key);
    if (!members) return;
    for (const settle of [...members]) settle({ kind: 'notified', value });
  }

  /**
   * Wakes the longest-waiting waiter of `key` only (a Set keeps insertion order); false when none waits.
   * For work that one waiter takes: waking all of them for one job cost O(waiters) per job (issue 10, item 8).
   */
  notifyOne(key: string, value: T): boolean {
    const first = this.waiting.get(key)?.values().next();
    if (!first || first.done) return false;
    first.value({ kind: 'notified', value });
    return true;
  }

  /** Ends every wait: the store was reset (waiters answer at once) or the server is closing. */
  interruptAll(kind: 'reset' | 'shutdown'): void {
    if (kind === 'shutdown') this.closed = true;
    for (const members of [...this.waiting.values()]) for (const settle of [...members]) settle({ kind });
  }

  /** The keys someone is waiting on now. */
  keys(): string[] {
    return [...this.waiting.keys()];
  }

  /** How many requests are waiting on `key`; for inspection. */
  count(key: string): number {
    return this.waiting.get(key)?.size ?? 0;
  }
}
