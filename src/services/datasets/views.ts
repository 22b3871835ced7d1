// A view: the files a reader sees at a point of a branch's history (docs/datasets.md, "Transactions and
// views"). It is the committed chain ending at the end transaction (default the branch head), walked back
// through each transaction's parent to the newest SNAPSHOT, or to the start transaction when one is given,
// then folded oldest first: SNAPSHOT replaces everything, APPEND and UPDATE add or replace, DELETE removes.
import type { DatasetsRepo } from './repo.js';
import type { BranchRecord, FileRecord, TransactionRecord } from './model.js';
import { fileNotFound, fileNotFoundOnBranch, fileNotFoundOnTransactionRange, transactionNotCommitted, transactionNotFound } from './errors.js';

export interface ViewRange {
  datasetRid: string;
  /** The branch whose head ends the view when no end transaction is given. */
  branch?: BranchRecord;
  startTransactionRid?: string;
  endTransactionRid?: string;
}

/** The committed transactions a view folds, oldest first. */
export function viewChain(transactions: readonly TransactionRecord[], range: ViewRange): TransactionRecord[] {
  const byRid = new Map(transactions.map((t) => [t.rid, t]));
  if (range.startTransactionRid !== undefined && !byRid.has(range.startTransactionRid)) throw transactionNotFound(range.datasetRid, range.startTransactionRid);
  const endRid = range.endTransactionRid ?? range.branch?.head;
  if (endRid === undefined) return [];
  const end = byRid.get(endRid);
  if (!end) throw transactionNotFound(range.datasetRid, endRid);
  if (end.status !== 'COMMITTED') throw transactionNotCommitted(end);
  const chain: TransactionRecord[] = [];
  // Bounded by the number of transactions: a parent link can only point at an older transaction.
  for (let t: TransactionRecord | undefined = end; t && chain.length <= transactions.length; t = t.parent === undefined ? undefined : byRid.get(t.parent)) {
    chain.push(t);
    if (t.type === 'SNAPSHOT' || t.rid === range.startTransactionRid) break;
  }
  const start = range.startTransactionRid;
  if (start !== undefined && !reaches(byRid, chain.at(-1), start))
    throw transactionNotFound(range.datasetRid, start).because(
      `transaction ${JSON.stringify(start)} is not in the history of ${JSON.stringify(endRid)} of dataset ${JSON.stringify(range.datasetRid)}: a view's start must come before its end`,
    );
  return chain.reverse();
}

/** Whether `rid` is `from` or one of its ancestors. */
function reaches(byRid: ReadonlyMap<string, TransactionRecord>, from: TransactionRecord | undefined, rid: string): boolean {
  for (let t = from, steps = 0; t && steps <= byRid.size; t = t.parent === undefined ? undefined : byRid.get(t.parent), steps++) if (t.rid === rid) return true;
  return false;
}

/** Folds the chain's files into the view: path -> the file a reader sees. */
export function foldView(chain: readonly TransactionRecord[], files: readonly FileRecord[]): Map<string, FileRecord> {
  const byTransaction = new Map<string, FileRecord[]>();
  for (const f of files) byTransaction.set(f.transactionRid, [...(byTransaction.get(f.transactionRid) ?? []), f]);
  const view = new Map<string, FileRecord>();
  for (const t of chain) {
    if (t.type === 'SNAPSHOT') view.clear();
    for (const f of byTransaction.get(t.rid) ?? []) {
      if (t.type === 'DELETE') view.delete(f.path);
      else view.set(f.path, f);
    }
  }
  return view;
}

/** The view of a range, sorted by path. */
export async function viewOf(repo: DatasetsRepo, range: ViewRange): Promise<FileRecord[]> {
  const chain = viewChain(await repo.liveTransactions(range.datasetRid), range);
  const view = foldView(chain, await repo.files(chain.map((t) => t.rid)));
  return [...view.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * The file at `path` among a view's files. Missing, it is FileNotFound, or with `precise` the branch's or range's
 * own error: content and delete know only those two (docs/datasets.md, "Errors").
 */
export function fileIn(files: readonly FileRecord[], range: ViewRange, path: string, precise: boolean): FileRecord {
  const found = files.find((f) => f.path === path);
  if (found) return found;
  const { datasetRid, branch, startTransactionRid, endTransactionRid } = range;
  if (!precise) throw fileNotFound(datasetRid, path, branch ? `branch ${JSON.stringify(branch.name)}` : 'the transaction range');
  if (endTransactionRid === undefined && branch) throw fileNotFoundOnBranch(datasetRid, branch.name, path);
  throw fileNotFoundOnTransactionRange(datasetRid, path, endTransactionRid ?? branch?.head ?? '', startTransactionRid);
}
