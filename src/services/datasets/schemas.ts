// Dataset schemas (docs/datasets.md, "Schemas"): each put is a new version (a UUID, which the Python SDK
// requires) on a branch, attached to a committed transaction. A read at a transaction sees the newest version
// attached to that transaction or one before it in its history, put on its own branch or on the branch that
// made that transaction.
import { randomUuid } from '../../ids.js';
import type { DatasetSchema, SchemaRecord, TransactionRecord } from './model.js';
import type { Datasets } from './operations.js';
import { DEFAULT_BRANCH } from './operations.js';
import * as E from './errors.js';
import { checkSchema } from './schema-check.js';

/** The transaction and its ancestors (committed parents), newest first. */
function history(transactions: readonly TransactionRecord[], rid: string): TransactionRecord[] {
  const byRid = new Map(transactions.map((t) => [t.rid, t]));
  const chain: TransactionRecord[] = [];
  for (let t = byRid.get(rid); t && chain.length <= transactions.length; t = t.parent === undefined ? undefined : byRid.get(t.parent)) chain.push(t);
  return chain;
}

export async function putSchema(
  datasets: Datasets,
  datasetRid: string,
  body: { branchName?: string; endTransactionRid?: string; schema: DatasetSchema; dataframeReader?: string },
): Promise<SchemaRecord> {
  checkSchema(body.schema);
  const branch = await datasets.branch(datasetRid, body.branchName ?? DEFAULT_BRANCH);
  const end = body.endTransactionRid ?? branch.head;
  if (end === undefined) throw E.datasetViewNotFound(datasetRid, branch.name);
  const t = await datasets.transaction(datasetRid, end);
  if (t.status !== 'COMMITTED') throw E.transactionNotCommitted(t);
  const record: SchemaRecord = {
    datasetRid,
    branch: branch.name,
    versionId: randomUuid(),
    endTransactionRid: t.rid,
    schema: body.schema,
    ...(body.dataframeReader === undefined ? {} : { dataframeReader: body.dataframeReader }),
  };
  await datasets.repo.insertSchema(record);
  return record;
}

/** The schema a read sees; undefined when there is none. */
export async function findSchema(
  datasets: Datasets,
  datasetRid: string,
  q: { branchName?: string; endTransactionRid?: string; versionId?: string },
): Promise<SchemaRecord | undefined> {
  let branchName = q.branchName;
  if (branchName === undefined && q.endTransactionRid !== undefined) branchName = (await datasets.transaction(datasetRid, q.endTransactionRid)).branch;
  const branch = await datasets.branch(datasetRid, branchName ?? DEFAULT_BRANCH);
  const versions = await datasets.repo.schemas(datasetRid);
  if (q.versionId !== undefined) return versions.find((v) => v.versionId === q.versionId);
  const end = q.endTransactionRid ?? branch.head;
  if (end === undefined) return undefined;
  const order = history(await datasets.repo.liveTransactions(datasetRid), end);
  // Nearest transaction of the history first. A version counts when it was put on the branch read, or on the
  // branch that made its transaction (so a new branch inherits its parent's schema, but a put on the new branch
  // does not change the parent's); the branch's own newest put wins. The answer names the branch read, also
  // for a version it inherited.
  for (const t of order) {
    const attached = versions.filter((v) => v.endTransactionRid === t.rid && (v.branch === branch.name || v.branch === t.branch));
    const own = attached.filter((v) => v.branch === branch.name);
    const found = own.at(-1) ?? attached.at(-1);
    if (found) return { ...found, branch: branch.name };
  }
  return undefined;
}

export async function getSchema(
  datasets: Datasets,
  datasetRid: string,
  q: { branchName?: string; endTransactionRid?: string; versionId?: string },
): Promise<SchemaRecord> {
  const found = await findSchema(datasets, datasetRid, q);
  if (!found) throw E.schemaNotFound(datasetRid, q.branchName ?? DEFAULT_BRANCH, q.endTransactionRid);
  return found;
}
