// One-call uploads and deletes on a store shared by several instances (docs/datasets.md, "Transactions and
// views"): the transaction such a call opens names this instance, whose lease (src/store/instance-lease.ts) keeps
// it. An instance killed before its commit or abort leaves it open; the next open on the branch, on any instance,
// finds that lease lapsed and aborts it first, in the repository's one step. A transaction a client opened is
// never taken back: the client may commit it later through any instance.
import type { InstanceLease } from '../../store/instance-lease.js';
import type { OpenHold } from './repo.js';
import type { TransactionRecord } from './model.js';

export interface ImplicitHolds {
  /** This instance's lease: its id names the one-call transactions it opens; its lapse, when another's holder is gone. */
  lease: Pick<InstanceLease, 'id' | 'lapseMs' | 'ready'>;
  /** Told of each transaction an open took back from a gone instance (the routes log it). */
  reclaimed(taken: { datasetRid: string; transactionRid: string; instance: string }): void;
}

/** What an open asks of the repository; `oneCall` for the transaction an upload or delete opens for itself. */
export async function openHold(holds: ImplicitHolds | undefined, oneCall: boolean): Promise<OpenHold> {
  if (!holds) return {};
  // Nothing is held under a lease the other instances cannot see alive yet (before its first renewal).
  if (oneCall) await holds.lease.ready;
  return { reclaimAfterMs: holds.lease.lapseMs, ...(oneCall ? { holder: holds.lease.id } : {}) };
}

/** An open took `taken` back from a gone instance: it is told (logged), and the transaction's files dropped. */
export async function tookBack(
  holds: ImplicitHolds | undefined,
  datasetRid: string,
  taken: { rid: string; holder: string },
  dropFiles: (transactionRid: string) => Promise<void>,
): Promise<void> {
  holds?.reclaimed({ datasetRid, transactionRid: taken.rid, instance: taken.holder });
  // Aborted already, so in no view: a drop that fails leaves bytes for the next reset, and never fails the open.
  await dropFiles(taken.rid).catch(() => undefined);
}

/**
 * Runs `work` in `t`, a transaction opened for one call, and closes it: committed when `work` succeeds, aborted
 * when it or the commit fails. Left open, it would hold its branch (409 on every open) while its instance lives.
 */
export async function settleOneCall<T>(
  t: TransactionRecord,
  close: (status: 'COMMITTED' | 'ABORTED') => Promise<unknown>,
  work: (t: TransactionRecord) => Promise<T>,
): Promise<T> {
  try {
    const done = await work(t);
    await close('COMMITTED');
    return done;
  } catch (err) {
    await close('ABORTED').catch(() => undefined);
    throw err;
  }
}
