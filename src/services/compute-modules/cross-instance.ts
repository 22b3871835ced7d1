// Several emulator instances on one shared store (docs/contracts.md §12): what one instance changes must wake the
// polls and held executes waiting on another. The store's notifications carry the hints; the store stays the
// truth, and a bounded re-check of every local waiter makes a lost hint a delay, never a lost wake-up.
import type { StoreNotifications } from '../../store/store.js';

export interface CrossInstanceHandlers {
  /** Another instance queued (or put back) a job for this runtime. */
  jobQueued(runtimeId: string): void;
  /** Another instance finished this job. */
  jobFinished(jobId: string): void;
  /** Another instance reset this runtime's session. */
  sessionReset(runtimeId: string): void;
  /** Look at the store again for every local waiter. */
  recheck(): void;
}

/** How often waiters look at the store on their own, in case a hint was lost. */
export const RECHECK_MS = 1000;

export interface CrossInstance {
  publishQueued(runtimeId: string): void;
  publishFinished(jobId: string): void;
  publishSession(runtimeId: string): void;
  stop(): void;
}

const NONE: CrossInstance = { publishQueued() {}, publishFinished() {}, publishSession() {}, stop() {} };

export function linkInstances(notifications: StoreNotifications | undefined, handlers: CrossInstanceHandlers, recheckMs = RECHECK_MS): CrossInstance {
  if (!notifications) return NONE; // a store of this process only: nothing to hear
  const unsubscribe = notifications.subscribe((topic) => {
    const colon = topic.indexOf(':');
    const kind = colon < 0 ? topic : topic.slice(0, colon);
    const key = topic.slice(colon + 1);
    if (kind === 'job-queued') handlers.jobQueued(key);
    else if (kind === 'job-finished') handlers.jobFinished(key);
    else if (kind === 'session') handlers.sessionReset(key);
    else if (kind === 'resync') handlers.recheck();
  });
  const timer = setInterval(() => handlers.recheck(), recheckMs);
  timer.unref();
  return {
    publishQueued: (runtimeId) => notifications.publish(`job-queued:${runtimeId}`),
    publishFinished: (jobId) => notifications.publish(`job-finished:${jobId}`),
    publishSession: (runtimeId) => notifications.publish(`session:${runtimeId}`),
    stop() {
      clearInterval(timer);
      unsubscribe();
    },
  };
}
