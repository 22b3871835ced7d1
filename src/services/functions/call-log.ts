// The recent function calls of this instance, for the dashboard's Function calls view (docs/functions.md,
// "Dashboard"): each call, the job it became, how long it took and how it ended. A ring of the newest calls,
// kept in memory beside the journal (like the journal, per instance, emptied on reset); one record per call,
// added after the answer is known, so a call costs one small object more.
import type { Store } from '../../store/store.js';
import type { JobRecord } from '../../store/store.js';
import { PlatformError } from '../../errors.js';

export const CALL_LOG_SIZE = 1000;

export interface CallRecord {
  /** When the call started (ms since the epoch; the view shows it as an ISO time). */
  at: number;
  function: string;
  /** `ontologies` (Queries.execute, executeFunction), `functions` (the functions API) or `action`. */
  via: 'ontologies' | 'functions' | 'action';
  /** Empty when the call was refused before any job existed (a bad parameter). */
  jobId: string;
  runtimeId: string;
  /** The job's state when the call ended (succeeded, failed, canceled, ...). */
  jobState: string;
  durationMs: number;
  /** `value`, or the error the caller got (QueryRuntimeError, QueryTimeExceededLimit, ...). */
  outcome: string;
}

export class CallLog {
  private readonly ring: CallRecord[] = [];
  add(record: CallRecord): void {
    this.ring.push(record);
    if (this.ring.length > CALL_LOG_SIZE) this.ring.shift();
  }
  /** Newest first. */
  list(): CallRecord[] {
    return [...this.ring].reverse();
  }
  clear(): void {
    this.ring.length = 0;
  }
}

const logs = new WeakMap<Store, CallLog>();
/** The call log of the app built on this store (one per app: the routes and the backstage meet here). */
export function callLogOf(store: Store): CallLog {
  let log = logs.get(store);
  if (!log) logs.set(store, (log = new CallLog()));
  return log;
}

/** Runs a call and records it: `work` reports the job once it exists. */
export async function recorded<T>(
  log: CallLog,
  call: { function: string; via: CallRecord['via'] },
  work: (seen: (job: JobRecord) => void) => Promise<T>,
): Promise<T> {
  const at = Date.now();
  const started = performance.now();
  let job: JobRecord | undefined;
  const add = (outcome: string) =>
    log.add({
      at,
      ...call,
      jobId: job?.jobId ?? '',
      runtimeId: job?.runtimeId ?? '',
      jobState: job?.state ?? 'none',
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      outcome,
    });
  try {
    const answer = await work((j) => (job = j));
    add('value');
    return answer;
  } catch (err) {
    add(err instanceof PlatformError ? err.errorName : err instanceof Error ? err.name : 'error');
    throw err;
  }
}
