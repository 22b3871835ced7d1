// The records the datasets service keeps (docs/datasets.md, "Transactions and views"). Bytes live in the byte
// store (src/blobs); these name them.

export type TransactionType = 'SNAPSHOT' | 'APPEND' | 'UPDATE' | 'DELETE';
export type TransactionStatus = 'OPEN' | 'COMMITTED' | 'ABORTED';
export const TRANSACTION_TYPES: readonly TransactionType[] = ['SNAPSHOT', 'APPEND', 'UPDATE', 'DELETE'];

export interface DatasetRecord {
  rid: string;
  name: string;
  parentFolderRid: string;
}

export interface BranchRecord {
  datasetRid: string;
  name: string;
  /** The newest committed transaction the branch's view ends at; absent on a branch with no history yet. */
  head?: string;
}

export interface TransactionRecord {
  rid: string;
  datasetRid: string;
  branch: string;
  type: TransactionType;
  status: TransactionStatus;
  createdTime: string;
  closedTime?: string;
  /** The branch head when it was opened: the view it builds on. A chain of these is a branch's history. */
  parent?: string;
  /** Opening order within the dataset, for listings. */
  seq: number;
}

/** A file written (or, in a DELETE transaction, removed) by a transaction. */
export interface FileRecord {
  transactionRid: string;
  path: string;
  /** Absent in a DELETE transaction: the path is removed from the view. */
  blobId?: string;
  size: number;
  updatedTime: string;
}

export interface SchemaRecord {
  datasetRid: string;
  branch: string;
  versionId: string;
  endTransactionRid: string;
  /** The wire DatasetSchema ({fieldSchemaList}), kept as sent. */
  schema: DatasetSchema;
  dataframeReader?: string;
}

export interface FieldSchema {
  type: string;
  name?: string;
  nullable: boolean;
  arraySubtype?: FieldSchema;
  precision?: number;
  scale?: number;
  [other: string]: unknown;
}

export interface DatasetSchema {
  fieldSchemaList: FieldSchema[];
}
