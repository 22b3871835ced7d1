// What the datasets routes and the seed do, over the async repositories (docs/datasets.md). No HTTP here.
import type { Store } from '../../store/store.js';
import type { Clock } from '../../clock.js';
import { randomUuid } from '../../ids.js';
import { BLOBS, BlobRemoved, BlobStoreFull, BlobTooLarge } from '../../blobs/index.js';
import { DATASETS } from './part.js';
import type { BranchRecord, DatasetRecord, FileRecord, TransactionRecord, TransactionType } from './model.js';
import { fileIn, viewOf, type ViewRange } from './views.js';
import * as E from './errors.js';
import { tableSourceFor } from './table/sources.js';
import type { ParquetWarmup } from './parquet-warmup.js';
import { watchUpload } from './csv-learning.js';
import { checkBranchName } from './paths.js';
import { checkDisplayName } from '../display-names.js';
import { openHold, settleOneCall, tookBack, type ImplicitHolds } from './implicit-holds.js';

export const DEFAULT_BRANCH = 'master';

export class Datasets {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    /** The routes' instance warms Parquet reads after commits; the seed's and other services' do not. */
    private readonly warmup?: ParquetWarmup,
    /** The routes' instance learns large CSV uploads as they arrive (csv-learning.ts); the seed's does not. */
    private readonly learnsCsv = false,
    /** The routes' instance: one-call transactions name this instance, and a gone one's are taken back. */
    private readonly holds?: ImplicitHolds,
  ) {}

  get repo() {
    return this.store.part(DATASETS);
  }
  get blobs() {
    return this.store.part(BLOBS);
  }
  /** A table another service serves for this dataset branch (a stream's records), if any. */
  tableSource(datasetRid: string, branchName: string) {
    return tableSourceFor(this.store, datasetRid, branchName);
  }
  private now(): string {
    return new Date(this.clock.now()).toISOString();
  }

  /**
   * A new dataset; `rid` is given by the seed and an import, which keep what they hold. A new one made by the API
   * (no `rid`) needs a name no other dataset in its folder has: it is found by path there.
   */
  async create(name: string, parentFolderRid: string, rid?: string, branches: readonly string[] = [DEFAULT_BRANCH]): Promise<DatasetRecord> {
    // Its name is a display name of its folder (a stream's dataset too).
    checkDisplayName(name);
    for (const branch of branches) checkBranchName(branch);
    if (rid === undefined && (await this.repo.datasets()).some((d) => d.parentFolderRid === parentFolderRid && d.name === name))
      throw E.resourceNameAlreadyExists(parentFolderRid, name);
    const record = { rid: rid ?? `ri.foundry.main.dataset.${randomUuid()}`, name, parentFolderRid };
    await this.repo.insertDataset(record);
    for (const branch of branches) await this.repo.insertBranch({ datasetRid: record.rid, name: branch });
    return record;
  }

  async dataset(rid: string): Promise<DatasetRecord> {
    const found = await this.repo.dataset(rid);
    if (!found) throw E.datasetNotFound(rid);
    return found;
  }

  async branch(datasetRid: string, name = DEFAULT_BRANCH): Promise<BranchRecord> {
    await this.dataset(datasetRid);
    const found = await this.repo.branch(datasetRid, name);
    if (!found) throw E.branchNotFound(datasetRid, name);
    return found;
  }

  async createBranch(datasetRid: string, name: string, transactionRid?: string): Promise<BranchRecord> {
    await this.dataset(datasetRid);
    checkBranchName(name);
    let head: string | undefined;
    if (transactionRid !== undefined) {
      const t = await this.transaction(datasetRid, transactionRid);
      if (t.status !== 'COMMITTED') throw E.transactionNotCommitted(t);
      head = t.rid;
    } else {
      // Without a transaction a branch starts at its parent's head; the request names no parent, so the parent
      // is the default branch (docs/datasets.md, "Branches").
      head = (await this.repo.branch(datasetRid, DEFAULT_BRANCH))?.head;
    }
    const record: BranchRecord = { datasetRid, name, ...(head === undefined ? {} : { head }) };
    if (!(await this.repo.insertBranch(record))) throw E.branchAlreadyExists(datasetRid, name);
    return record;
  }

  /**
   * Deletes a branch and aborts its open transaction in the same step: left open, it would block a new branch
   * of the same name and, committed later, move that branch's head onto the old history.
   */
  async deleteBranch(datasetRid: string, name: string): Promise<void> {
    await this.branch(datasetRid, name);
    const deleted = await this.repo.deleteBranch(datasetRid, name, this.now());
    if (!deleted) throw E.branchNotFound(datasetRid, name);
    if (deleted.aborted !== undefined) await this.dropAborted(deleted.aborted);
  }

  /** An aborted transaction leaves no trace in any view: its files, and their bytes, go. */
  private async dropAborted(transactionRid: string): Promise<void> {
    for (const blobId of await this.repo.dropFiles(transactionRid)) await this.blobs.delete(blobId);
  }

  /** Each branch's open transaction (at most one per branch), by branch name. */
  async openTransactions(datasetRid: string): Promise<Map<string, TransactionRecord>> {
    const open = new Map<string, TransactionRecord>();
    for (const t of await this.repo.liveTransactions(datasetRid)) if (t.status === 'OPEN') open.set(t.branch, t);
    return open;
  }

  async transaction(datasetRid: string, rid: string): Promise<TransactionRecord> {
    await this.dataset(datasetRid);
    const found = await this.repo.transaction(datasetRid, rid);
    if (!found) throw E.transactionNotFound(datasetRid, rid);
    return found;
  }

  /** `oneCall`: the transaction an upload or a delete opens for itself (implicit-holds.ts). */
  async open(datasetRid: string, branchName: string, type: TransactionType, oneCall = false): Promise<TransactionRecord> {
    const branch = await this.branch(datasetRid, branchName);
    const rid = `ri.foundry.main.transaction.${randomUuid()}`;
    const record = { rid, datasetRid, branch: branch.name, type, status: 'OPEN' as const, createdTime: this.now() };
    const { opened, reclaimed } = await this.repo.openTransaction(record, await openHold(this.holds, oneCall));
    if (reclaimed) await tookBack(this.holds, datasetRid, reclaimed, (aborted) => this.dropAborted(aborted));
    if (!opened) {
      // The branch deleted meanwhile (another instance) is not a conflict: BranchNotFound, as a moment later.
      await this.branch(datasetRid, branchName);
      throw E.openTransactionAlreadyExists(datasetRid, branch.name, (await this.openTransactions(datasetRid)).get(branch.name)?.rid);
    }
    return opened;
  }

  async close(datasetRid: string, rid: string, status: 'COMMITTED' | 'ABORTED'): Promise<TransactionRecord> {
    const t = await this.transaction(datasetRid, rid);
    if (t.status !== 'OPEN') throw E.transactionNotOpen(t);
    const closed = await this.repo.closeTransaction(datasetRid, rid, status, this.now());
    if (!closed) throw E.transactionNotOpen(await this.transaction(datasetRid, rid));
    if (status === 'ABORTED') await this.dropAborted(rid);
    else if (this.warmup?.wanted()) {
      // Not awaited: the commit answers now; a file list that fails to load only means no warm-up.
      const warmup = this.warmup;
      this.repo.files([rid]).then(
        (files) => warmup.committed(files),
        () => undefined,
      );
    }
    return closed;
  }

  /** The files of a view, sorted by path. */
  async view(range: ViewRange): Promise<FileRecord[]> {
    return viewOf(this.repo, range);
  }

  /** The view a read names: a branch (default master) or an explicit transaction range. */
  async readRange(datasetRid: string, q: { branchName?: string; startTransactionRid?: string; endTransactionRid?: string }): Promise<ViewRange> {
    await this.dataset(datasetRid);
    if (q.endTransactionRid !== undefined && q.branchName === undefined)
      return {
        datasetRid,
        endTransactionRid: q.endTransactionRid,
        ...(q.startTransactionRid === undefined ? {} : { startTransactionRid: q.startTransactionRid }),
      };
    const branch = await this.branch(datasetRid, q.branchName ?? DEFAULT_BRANCH);
    return {
      datasetRid,
      branch,
      ...(q.startTransactionRid === undefined ? {} : { startTransactionRid: q.startTransactionRid }),
      ...(q.endTransactionRid === undefined ? {} : { endTransactionRid: q.endTransactionRid }),
    };
  }

  /** The file at `path` in a view (views.ts fileIn names what is missing). */
  async file(range: ViewRange, path: string, precise = false): Promise<FileRecord> {
    return fileIn(await this.view(range), range, path, precise);
  }

  /**
   * Writes `body` as `path` into an open transaction, or (with a branch) into a new transaction of
   * `type` (default UPDATE) committed in the same call, aborted if the write fails.
   */
  async upload(
    datasetRid: string,
    path: string,
    body: AsyncIterable<Uint8Array>,
    q: {
      transactionRid?: string;
      branchName?: string;
      transactionType?: TransactionType;
      maxBytes: number;
      maxHeldBytes?: number;
      contentType?: string;
      declaredBytes?: number;
    },
  ): Promise<FileRecord> {
    if (q.transactionRid !== undefined) {
      if (q.branchName !== undefined || q.transactionType !== undefined)
        throw E.invalidParameterCombination(
          [['transactionRid'], ['branchName', 'transactionType']],
          ['transactionRid', ...(q.branchName === undefined ? [] : ['branchName']), ...(q.transactionType === undefined ? [] : ['transactionType'])],
          'transactionRid names the transaction already; branchName and transactionType open a new one',
        );
      const t = await this.transaction(datasetRid, q.transactionRid);
      return this.write(t, path, body, q);
    }
    // Refused before a transaction is opened, so that a wrong request leaves no aborted one in the history.
    if (q.transactionType === 'DELETE')
      throw E.invalidTransactionType(datasetRid, '', 'DELETE', 'an upload cannot open a DELETE transaction: it removes files, it cannot write one');
    return this.inOneCall(datasetRid, q.branchName ?? DEFAULT_BRANCH, q.transactionType ?? 'UPDATE', (t) => this.write(t, path, body, q));
  }

  /** `work` in a transaction opened for this one call (implicit-holds.ts): committed, or aborted, never left open. */
  private async inOneCall<T>(datasetRid: string, branchName: string, type: TransactionType, work: (t: TransactionRecord) => Promise<T>): Promise<T> {
    const t = await this.open(datasetRid, branchName, type, true);
    return settleOneCall(t, (status) => this.close(datasetRid, t.rid, status), work);
  }

  private async write(
    t: TransactionRecord,
    path: string,
    body: AsyncIterable<Uint8Array>,
    q: { maxBytes: number; maxHeldBytes?: number; contentType?: string; declaredBytes?: number },
  ): Promise<FileRecord> {
    if (t.status !== 'OPEN') throw E.transactionNotOpen(t);
    if (t.type === 'DELETE')
      throw E.invalidTransactionType(
        t.datasetRid,
        t.rid,
        t.type,
        `transaction ${JSON.stringify(t.rid)} is a DELETE transaction: it removes files, it cannot upload one`,
      );
    if (t.type === 'APPEND') {
      const before = await this.view({ datasetRid: t.datasetRid, ...(t.parent === undefined ? {} : { endTransactionRid: t.parent }) });
      if (t.parent !== undefined && before.some((f) => f.path === path)) throw E.fileAlreadyExists(t, path);
    }
    const watched = this.learnsCsv ? watchUpload(path, q.declaredBytes ?? NaN) : undefined;
    let info;
    try {
      info = await this.blobs.put(body, {
        maxBytes: q.maxBytes,
        ...(q.maxHeldBytes === undefined ? {} : { maxHeldBytes: q.maxHeldBytes }),
        ...(q.contentType === undefined ? {} : { contentType: q.contentType }),
        ...(watched ? { onChunk: watched.onChunk } : {}),
      });
    } catch (err) {
      watched?.failed();
      if (err instanceof BlobTooLarge) throw E.fileTooLarge(err.maxBytes);
      if (err instanceof BlobStoreFull) throw E.byteStoreFull(err.maxHeldBytes);
      // A reset took the blob, and with it the transaction: answered as the memory store's putFile is below.
      if (err instanceof BlobRemoved) throw E.transactionNotOpen(await this.transaction(t.datasetRid, t.rid));
      throw err;
    }
    const file: FileRecord = { transactionRid: t.rid, path, blobId: info.blobId, size: info.size, updatedTime: this.now() };
    const put = await this.repo.putFile(file).catch((err: unknown) => {
      watched?.failed();
      throw err;
    });
    if (put === 'not-open') {
      watched?.failed();
      await this.blobs.delete(info.blobId);
      throw E.transactionNotOpen(await this.transaction(t.datasetRid, t.rid));
    }
    watched?.stored(info.blobId);
    if (put.replaced !== undefined) await this.blobs.delete(put.replaced);
    return file;
  }

  /** Removes `path` in an open DELETE transaction, or in a new one on the branch committed at once. */
  async deleteFile(datasetRid: string, path: string, q: { transactionRid?: string; branchName?: string }): Promise<void> {
    if (q.transactionRid !== undefined) {
      if (q.branchName !== undefined)
        throw E.invalidParameterCombination(
          [['transactionRid'], ['branchName']],
          ['transactionRid', 'branchName'],
          'transactionRid names the transaction, and so its branch, already',
        );
      const t = await this.transaction(datasetRid, q.transactionRid);
      if (t.status !== 'OPEN') throw E.transactionNotOpen(t);
      if (t.type !== 'DELETE')
        throw E.invalidTransactionType(datasetRid, t.rid, t.type, `files are deleted in a DELETE transaction; ${JSON.stringify(t.rid)} is ${t.type}`);
      const branch = await this.repo.branch(datasetRid, t.branch);
      await this.file({ datasetRid, ...(branch ? { branch } : {}), ...(t.parent === undefined ? {} : { endTransactionRid: t.parent }) }, path, true);
      if ((await this.repo.putFile({ transactionRid: t.rid, path, size: 0, updatedTime: this.now() })) === 'not-open') throw E.transactionNotOpen(t, 'closed');
      return;
    }
    const branch = await this.branch(datasetRid, q.branchName ?? DEFAULT_BRANCH);
    await this.file({ datasetRid, branch }, path, true);
    await this.inOneCall(datasetRid, branch.name, 'DELETE', (t) => this.repo.putFile({ transactionRid: t.rid, path, size: 0, updatedTime: this.now() }));
  }
}
