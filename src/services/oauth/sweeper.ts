// Deletes expired credentials (access tokens, codes, refresh tokens, pending sign-ins) on a timer, so that
// memory stays bounded however many are issued.
import type { Clock } from '../../clock.js';
import type { Store } from '../../store/store.js';
import { releaseAfterBigDeletion } from '../../memory-release.js';

const SWEEP_INTERVAL_MS = 30_000;

export function startSweeper(store: Store, clock: Clock, intervalMs = SWEEP_INTERVAL_MS): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sweepExpired(store, clock)
      .catch(() => undefined) // a failed sweep is retried at the next tick
      .finally(() => (running = false));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** One sweep of everything that expired; the timer runs it, and so does the control route that moves the clock. */
export async function sweepExpired(store: Store, clock: Clock): Promise<{ tokens: number; oauth: number }> {
  const now = clock.now();
  const [tokens, oauth] = await Promise.all([store.tokens.sweepExpired(now), store.oauth.sweepExpired(now)]);
  releaseAfterBigDeletion(tokens + oauth);
  return { tokens, oauth };
}
