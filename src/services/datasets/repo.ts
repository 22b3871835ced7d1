// The datasets repository: what both stores offer (memory is the reference; docs/datasets.md).
import type { BranchRecord, DatasetRecord, FileRecord, SchemaRecord, TransactionRecord, TransactionStatus } from './model.js';

/** Who holds a transaction an open makes, and when another's holder counts as gone (implicit-holds.ts). */
export interface OpenHold {
  /** The instance holding a one-call transaction; absent for one a client opens (never taken back). */
  holder?: string;
  /** Abort first the branch's open one-call transaction whose holder has not renewed its lease for this long (ms). */
  reclaimAfterMs?: number;
}

export interface OpenOutcome {
  opened?: TransactionRecord;
  /** The open one-call transaction aborted because its holder's lease had lapsed. */
  reclaimed?: { rid: string; holder: string };
}

export interface DatasetsRepo {
  insertDataset(dataset: DatasetRecord): Promise<void>;
  dataset(rid: string): Promise<DatasetRecord | undefined>;
  datasets(): Promise<DatasetRecord[]>;

  /** False when the branch exists already. */
  insertBranch(branch: BranchRecord): Promise<boolean>;
  branch(datasetRid: string, name: string): Promise<BranchRecord | undefined>;
  branches(datasetRid: string): Promise<BranchRecord[]>;
  /**
   * Deletes the branch and aborts its open transaction, if any, in one step (an open racing the delete either
   * comes first and is aborted, or finds no branch); answers the aborted transaction's rid, or undefined when
   * the branch was not there.
   */
  deleteBranch(datasetRid: string, name: string, closedTime: string): Promise<{ aborted?: string } | undefined>;

  /**
   * Opens a transaction whose parent is its branch's head at that moment; `opened` is absent when the branch has
   * an open one already (one per branch) or is gone. Both are decided atomically with commits: a head read before
   * a concurrent commit would put the new transaction on the old history and drop the committed files from its view.
   * On a shared store, in the same step and first, the branch's open one-call transaction whose holder's lease has
   * lapsed (`reclaimAfterMs`) is aborted and answered as `reclaimed` (its files are the caller's to drop). The
   * memory store ignores `hold`: an upload killed with its process leaves nothing behind.
   */
  openTransaction(transaction: Omit<TransactionRecord, 'seq' | 'parent'>, hold?: OpenHold): Promise<OpenOutcome>;
  /**
   * The dataset's transactions but the aborted ones, oldest first: what views, schema histories and open lookups
   * walk (an aborted transaction is in no view and no one's parent). A dataset with 26k aborted transactions read
   * its views in 200 ms on PostgreSQL when they were loaded too.
   */
  liveTransactions(datasetRid: string): Promise<TransactionRecord[]>;
  /** Every transaction of the dataset, oldest first. */
  transactions(datasetRid: string): Promise<TransactionRecord[]>;
  transaction(datasetRid: string, rid: string): Promise<TransactionRecord | undefined>;
  /**
   * Closes an OPEN transaction; a commit also moves its branch's head to it, in the same step. Undefined when
   * the transaction was not open (the caller reports its status).
   */
  closeTransaction(datasetRid: string, rid: string, status: Exclude<TransactionStatus, 'OPEN'>, closedTime: string): Promise<TransactionRecord | undefined>;

  /**
   * Records a file in an OPEN transaction (replacing the same path in it). Answers the blob it replaced, or
   * 'not-open' when the transaction was closed in between (then nothing is recorded).
   */
  putFile(file: FileRecord): Promise<{ replaced?: string } | 'not-open'>;
  /** The files of the given transactions. */
  files(transactionRids: readonly string[]): Promise<FileRecord[]>;
  /** Forgets a transaction's files (an abort); answers their blobs to delete. */
  dropFiles(transactionRid: string): Promise<string[]>;

  insertSchema(schema: SchemaRecord): Promise<void>;
  /** The dataset's schema versions on every branch, oldest first. */
  schemas(datasetRid: string): Promise<SchemaRecord[]>;
}
