// Memory handed back after a big deletion: GC pressure handling, kept out of the services that delete
// (docs/architecture.md, Hot paths). Used by the OAuth sweeper; any service that drops many records at once may
// call it.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * What a big deletion (a sweep of expired tokens, a dataset dropped) frees is given back only at V8's next full collection, which a quiet service may not reach for a
 * long time: the bench minted 1,000,000 tokens, swept them, and the process still held 355 MB a minute later.
 * After a sweep this big (an hour of more than ~14 tokens a second) we ask for that collection at once; it
 * pauses the service for tens of milliseconds, and returns the memory.
 */
const BIG_SWEEP = 50_000;
let fullCollection: (() => void) | null | undefined;

/**
 * V8 shrinks its young generation (grown to 32 MB by the burst that issued the tokens) only at a collection
 * that sees a low allocation rate over the last 5 s, which the one right after the sweep never does. A second
 * collection once that window has passed gives back those 32 MB: in a probe of 1,000,000 tokens, RSS went
 * from +40 MB over its start to +3 MB. Unreferenced: it never keeps the process alive.
 */
const QUIET_AFTER_MS = 6_000;
let again: NodeJS.Timeout | undefined;

function collectAgainWhenQuiet(): void {
  clearTimeout(again);
  again = setTimeout(collectGarbage, QUIET_AFTER_MS).unref();
}

/** Called with how many records a step just deleted: past BIG_SWEEP, asks V8 for the memory back (see above). */
export function releaseAfterBigDeletion(deleted: number): void {
  if (deleted < BIG_SWEEP) return;
  collectGarbage();
  collectAgainWhenQuiet();
}

function collectGarbage(): void {
  if (fullCollection === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      fullCollection = runInNewContext('gc') as () => void;
    } catch {
      fullCollection = null; // not offered by this runtime: the memory is freed at V8's own pace
    }
  }
  fullCollection?.();
}
