// The datasets repository in PostgreSQL (docs/datasets.md). One open transaction per branch is a partial
// unique index; a commit closes the transaction and moves the branch head in one database transaction; opens
// and closes lock the branch's row first, so an open records the head a commit under way sets. Under that lock an
// open first aborts a one-call transaction whose instance's lease has lapsed (implicit-holds.ts).
import type { Db } from '../../store/postgres/db.js';
import { leaseLapsed } from '../../store/postgres/instances.js';
import type { DatasetsRepo, OpenHold, OpenOutcome } from './repo.js';
import type { BranchRecord, DatasetRecord, FileRecord, SchemaRecord, TransactionRecord, TransactionStatus, TransactionType } from './model.js';

interface TransactionRow {
  rid: string;
  dataset_rid: string;
  branch: string;
  type: TransactionType;
  status: TransactionStatus;
  created_time: string;
  closed_time: string | null;
  parent: string | null;
  seq: number;
}
const TX_COLUMNS = 'rid, dataset_rid, branch, type, status, created_time, closed_time, parent, seq';
const transactionOf = (r: TransactionRow): TransactionRecord => ({
  rid: r.rid,
  datasetRid: r.dataset_rid,
  branch: r.branch,
  type: r.type,
  status: r.status,
  createdTime: r.created_time,
  ...(r.closed_time === null ? {} : { closedTime: r.closed_time }),
  ...(r.parent === null ? {} : { parent: r.parent }),
  seq: r.seq,
});

interface FileRow {
  transaction_rid: string;
  path: string;
  blob_id: string | null;
  size: number;
  updated_time: string;
}
const fileOf = (r: FileRow): FileRecord => ({
  transactionRid: r.transaction_rid,
  path: r.path,
  ...(r.blob_id === null ? {} : { blobId: r.blob_id }),
  size: r.size,
  updatedTime: r.updated_time,
});

const branchOf = (r: { dataset_rid: string; name: string; head: string | null }): BranchRecord => ({
  datasetRid: r.dataset_rid,
  name: r.name,
  ...(r.head === null ? {} : { head: r.head }),
});

const LOCK_BRANCH = 'SELECT head FROM dataset_branches WHERE dataset_rid = $1 AND name = $2 FOR UPDATE';

export class PostgresDatasets implements DatasetsRepo {
  constructor(private readonly db: Db) {}

  async insertDataset(d: DatasetRecord) {
    await this.db.query('INSERT INTO datasets (rid, name, parent_folder_rid) VALUES ($1, $2, $3) ON CONFLICT (rid) DO NOTHING', [
      d.rid,
      d.name,
      d.parentFolderRid,
    ]);
  }
  async dataset(rid: string) {
    const row = await this.db.first<{ rid: string; name: string; parent_folder_rid: string }>(
      'SELECT rid, name, parent_folder_rid FROM datasets WHERE rid = $1',
      [rid],
    );
    return row && { rid: row.rid, name: row.name, parentFolderRid: row.parent_folder_rid };
  }
  async datasets() {
    const rows = await this.db.rows<{ rid: string; name: string; parent_folder_rid: string }>('SELECT rid, name, parent_folder_rid FROM datasets ORDER BY seq');
    return rows.map((row) => ({ rid: row.rid, name: row.name, parentFolderRid: row.parent_folder_rid }));
  }

  async insertBranch(b: BranchRecord) {
    const res = await this.db.query('INSERT INTO dataset_branches (dataset_rid, name, head) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [
      b.datasetRid,
      b.name,
      b.head ?? null,
    ]);
    return res.rowCount === 1;
  }
  async branch(datasetRid: string, name: string) {
    const row = await this.db.first<{ dataset_rid: string; name: string; head: string | null }>(
      'SELECT dataset_rid, name, head FROM dataset_branches WHERE dataset_rid = $1 AND name = $2',
      [datasetRid, name],
    );
    return row && branchOf(row);
  }
  async branches(datasetRid: string) {
    const rows = await this.db.rows<{ dataset_rid: string; name: string; head: string | null }>(
      'SELECT dataset_rid, name, head FROM dataset_branches WHERE dataset_rid = $1 ORDER BY seq',
      [datasetRid],
    );
    return rows.map(branchOf);
  }
  // Under the branch's row lock, as opens and closes: an open after it finds no branch, one before it is aborted.
  async deleteBranch(datasetRid: string, name: string, closedTime: string) {
    return this.db.transaction(async (q) => {
      if ((await q.query(LOCK_BRANCH, [datasetRid, name])).rowCount !== 1) return undefined;
      const aborted = (
        await q.query<{ rid: string }>(
          `UPDATE dataset_transactions SET status = 'ABORTED', closed_time = $3 WHERE dataset_rid = $1 AND branch = $2 AND status = 'OPEN' RETURNING rid`,
          [datasetRid, name, closedTime],
        )
      ).rows[0];
      await q.query('DELETE FROM dataset_branches WHERE dataset_rid = $1 AND name = $2', [datasetRid, name]);
      return aborted ? { aborted: aborted.rid } : {};
    });
  }

  // Open and close both lock the branch's row first, so an open waits for a commit under way and then reads the
  // head it set (an open that read the head before it would hang the new transaction on the old history).
  async openTransaction(t: Omit<TransactionRecord, 'seq' | 'parent'>, hold: OpenHold = {}): Promise<OpenOutcome> {
    return this.db.transaction(async (q) => {
      const branch = (await q.query<{ head: string | null }>(LOCK_BRANCH, [t.datasetRid, t.branch])).rows[0];
      if (!branch) return {};
      // Under the same lock as the one-open rule: of two instances opening at once, one takes the dead holder's
      // transaction over and opens; the other then meets the new transaction.
      const reclaimed =
        hold.reclaimAfterMs === undefined
          ? undefined
          : (
              await q.query<{ rid: string; holder: string }>(
                `UPDATE dataset_transactions t SET status = 'ABORTED', closed_time = $3
                 WHERE dataset_rid = $1 AND branch = $2 AND status = 'OPEN' AND holder IS NOT NULL AND ${leaseLapsed('t.holder', '$4')}
                 RETURNING rid, holder`,
                [t.datasetRid, t.branch, t.createdTime, hold.reclaimAfterMs],
              )
            ).rows[0];
      const row = (
        await q.query<TransactionRow>(
          `INSERT INTO dataset_transactions (rid, dataset_rid, branch, type, status, created_time, parent, holder) VALUES ($1, $2, $3, $4, 'OPEN', $5, $6, $7)
           ON CONFLICT DO NOTHING RETURNING ${TX_COLUMNS}`,
          [t.rid, t.datasetRid, t.branch, t.type, t.createdTime, branch.head, hold.holder ?? null],
        )
      ).rows[0];
      return { ...(row ? { opened: transactionOf(row) } : {}), ...(reclaimed ? { reclaimed } : {}) };
    });
  }
  async transactions(datasetRid: string) {
    return (await this.db.rows<TransactionRow>(`SELECT ${TX_COLUMNS} FROM dataset_transactions WHERE dataset_rid = $1 ORDER BY seq`, [datasetRid])).map(
      transactionOf,
    );
  }
  async liveTransactions(datasetRid: string) {
    return (
      await this.db.rows<TransactionRow>(`SELECT ${TX_COLUMNS} FROM dataset_transactions WHERE dataset_rid = $1 AND status <> 'ABORTED' ORDER BY seq`, [
        datasetRid,
      ])
    ).map(transactionOf);
  }
  async transaction(datasetRid: string, rid: string) {
    const row = await this.db.first<TransactionRow>(`SELECT ${TX_COLUMNS} FROM dataset_transactions WHERE dataset_rid = $1 AND rid = $2`, [datasetRid, rid]);
    return row && transactionOf(row);
  }
  async closeTransaction(datasetRid: string, rid: string, status: Exclude<TransactionStatus, 'OPEN'>, closedTime: string) {
    return this.db.transaction(async (q) => {
      // A transaction's branch never changes: read without a lock, then lock the branch as an open does.
      const branch = (await q.query<{ branch: string }>('SELECT branch FROM dataset_transactions WHERE dataset_rid = $1 AND rid = $2', [datasetRid, rid]))
        .rows[0];
      if (!branch) return undefined;
      await q.query(LOCK_BRANCH, [datasetRid, branch.branch]);
      const row = (
        await q.query<TransactionRow>(
          `UPDATE dataset_transactions SET status = $3, closed_time = $4 WHERE dataset_rid = $1 AND rid = $2 AND status = 'OPEN' RETURNING ${TX_COLUMNS}`,
          [datasetRid, rid, status, closedTime],
        )
      ).rows[0];
      if (row && status === 'COMMITTED')
        await q.query('UPDATE dataset_branches SET head = $3 WHERE dataset_rid = $1 AND name = $2', [datasetRid, row.branch, rid]);
      return row && transactionOf(row);
    });
  }

  async putFile(f: FileRecord) {
    return this.db.transaction(async (q) => {
      // The row lock keeps a commit or abort from closing the transaction between the check and the write.
      const open = (await q.query<{ status: string }>('SELECT status FROM dataset_transactions WHERE rid = $1 FOR UPDATE', [f.transactionRid])).rows[0];
      if (open?.status !== 'OPEN') return 'not-open' as const;
      const old = (
        await q.query<{ blob_id: string | null }>('SELECT blob_id FROM dataset_files WHERE transaction_rid = $1 AND path = $2', [f.transactionRid, f.path])
      ).rows[0];
      await q.query(
        `INSERT INTO dataset_files (transaction_rid, path, blob_id, size, updated_time) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (transaction_rid, path) DO UPDATE SET blob_id = $3, size = $4, updated_time = $5`,
        [f.transactionRid, f.path, f.blobId ?? null, f.size, f.updatedTime],
      );
      return old?.blob_id ? { replaced: old.blob_id } : {};
    });
  }
  async files(transactionRids: readonly string[]) {
    if (transactionRids.length === 0) return [];
    const rows = await this.db.rows<FileRow>(
      'SELECT transaction_rid, path, blob_id, size, updated_time FROM dataset_files WHERE transaction_rid = ANY($1) ORDER BY path',
      [transactionRids],
    );
    return rows.map(fileOf);
  }
  async dropFiles(transactionRid: string) {
    const rows = await this.db.rows<{ blob_id: string | null }>('DELETE FROM dataset_files WHERE transaction_rid = $1 RETURNING blob_id', [transactionRid]);
    return rows.flatMap((r) => (r.blob_id ? [r.blob_id] : []));
  }

  async insertSchema(s: SchemaRecord) {
    await this.db.query(
      'INSERT INTO dataset_schemas (dataset_rid, branch, version_id, end_transaction_rid, schema, dataframe_reader) VALUES ($1, $2, $3, $4, $5, $6)',
      [s.datasetRid, s.branch, s.versionId, s.endTransactionRid, JSON.stringify(s.schema), s.dataframeReader ?? null],
    );
  }
  async schemas(datasetRid: string) {
    const rows = await this.db.rows<{ branch: string; version_id: string; end_transaction_rid: string; schema: string; dataframe_reader: string | null }>(
      'SELECT branch, version_id, end_transaction_rid, schema, dataframe_reader FROM dataset_schemas WHERE dataset_rid = $1 ORDER BY seq',
      [datasetRid],
    );
    return rows.map((r) => ({
      datasetRid,
      branch: r.branch,
      versionId: r.version_id,
      endTransactionRid: r.end_transaction_rid,
      schema: JSON.parse(r.schema) as SchemaRecord['schema'],
      ...(r.dataframe_reader === null ? {} : { dataframeReader: r.dataframe_reader }),
    }));
  }
}
