// Records as the wire carries them (`@osdk/foundry.datasets` 2.38.0 / foundry-platform-sdk 1.111.0 models).
import type { BranchRecord, DatasetRecord, FileRecord, SchemaRecord, TransactionRecord } from './model.js';

export const datasetWire = (d: DatasetRecord) => ({ rid: d.rid, name: d.name, parentFolderRid: d.parentFolderRid });

export const branchWire = (b: BranchRecord) => ({ name: b.name, ...(b.head === undefined ? {} : { transactionRid: b.head }) });

export const transactionWire = (t: TransactionRecord) => ({
  rid: t.rid,
  transactionType: t.type,
  status: t.status,
  createdTime: t.createdTime,
  ...(t.closedTime === undefined ? {} : { closedTime: t.closedTime }),
});

// sizeBytes is a Long: a decimal string on the wire.
export const fileWire = (f: FileRecord) => ({ path: f.path, transactionRid: f.transactionRid, sizeBytes: String(f.size), updatedTime: f.updatedTime });

export const schemaWire = (s: SchemaRecord) => ({ branchName: s.branch, endTransactionRid: s.endTransactionRid, schema: s.schema, versionId: s.versionId });

/** One page of `items` from an offset token: `{data, nextPageToken?}`. */
export function page<T, W>(
  items: readonly T[],
  wire: (item: T) => W,
  pageSize: number | undefined,
  pageToken: string | undefined,
): { data: W[]; nextPageToken?: string } {
  const start = pageToken !== undefined && /^\d+$/.test(pageToken) ? Number(pageToken) : 0;
  const size = pageSize ?? 1000;
  const data = items.slice(start, start + size).map(wire);
  return start + size < items.length ? { data, nextPageToken: String(start + size) } : { data };
}
