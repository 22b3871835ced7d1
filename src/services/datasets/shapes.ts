// Records as the wire carries them (`@osdk/foundry.datasets` 2.38.0 / foundry-platform-sdk 1.111.0 models).
import { pageOf, type PageRequest } from '../paging.js';
import type { BranchRecord, DatasetRecord, FileRecord, SchemaRecord, TransactionRecord } from './model.js';

export const datasetWire = (d: DatasetRecord) => ({ rid: d.rid, name: d.name, parentFolderRid: d.parentFolderRid });

/** `transactionRid` is the branch's newest OPEN or COMMITTED transaction (the SDKs' Branch model): pass the open one. */
export const branchWire = (b: BranchRecord, openRid?: string) => {
  const rid = openRid ?? b.head;
  return { name: b.name, ...(rid === undefined ? {} : { transactionRid: rid }) };
};

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

/**
 * One page of `items` (`{data, nextPageToken?}`), with the service-wide page tokens (src/services/paging.ts):
 * `query` names what is paged, so a token from another listing is InvalidPageToken; a page size below 1 is
 * InvalidPageSize.
 */
export function page<T, W>(items: readonly T[], wire: (item: T) => W, request: PageRequest, query: string): { data: W[]; nextPageToken?: string } {
  const { data, nextPageToken } = pageOf(items, request, query);
  return { data: data.map(wire), ...(nextPageToken === undefined ? {} : { nextPageToken }) };
}
