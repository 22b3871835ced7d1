// What the streams routes and the seed do, over the async repositories (docs/streams.md). No HTTP here. A
// stream's dataset lives in the datasets service (a stream is a dataset); its stream and records live here.
import type { Store } from '../../store/store.js';
import type { Clock } from '../../clock.js';
import { randomUuid } from '../../ids.js';
import { Datasets, DEFAULT_BRANCH } from '../datasets/operations.js';
import type { DatasetRecord } from '../datasets/model.js';
import { STREAMS } from './part.js';
import { STREAM_TYPES, type StoredRecord, type StreamRecord, type StreamSchema, type StreamType, type ViewBounds } from './model.js';
import { binaryField, recordProblem, schemaProblem } from './schema.js';
import * as E from './errors.js';

/** The largest record, as its JSON text (the platform's documented 1 MB). */
export const MAX_RECORD_BYTES = 1024 * 1024;
/** limits.max_stream_records when the config does not say. */
export const DEFAULT_MAX_STREAM_RECORDS = 1_000_000;
/** The most records one publishRecords or jsonRecords request may carry. */
export const MAX_BATCH_RECORDS = 10_000;
/** The most records one read answers (the SDK documents that the server may answer fewer than asked). */
export const MAX_READ_RECORDS = 10_000;

export interface StreamSettings {
  schema: unknown;
  partitionsCount?: number | undefined;
  streamType?: unknown;
  compressed?: boolean | undefined;
}

export const newViewRid = () => `ri.foundry-streaming.main.view.${randomUuid()}`;

export class Streams {
  readonly datasets: Datasets;
  constructor(
    private readonly store: Store,
    clock: Clock,
    /** limits.max_stream_records: the most records a view keeps. */
    readonly maxRecords: number,
  ) {
    this.datasets = new Datasets(store, clock);
  }

  get repo() {
    return this.store.part(STREAMS);
  }

  /** A new dataset with a stream on `branchName` (default master). */
  async createDataset(name: string, parentFolderRid: string, settings: StreamSettings & { branchName?: string }, rid?: string) {
    const branch = settings.branchName ?? DEFAULT_BRANCH;
    const stream = this.streamOf('', branch, settings);
    const dataset: DatasetRecord = await this.datasets.create(name, parentFolderRid, rid, [branch]);
    stream.datasetRid = dataset.rid;
    if (!(await this.repo.insertStream(stream))) throw E.streamAlreadyExists(dataset.rid, branch);
    return { dataset, stream };
  }

  /** A stream on a branch of an existing dataset (the branch is made when the dataset lacks it). */
  async createStream(datasetRid: string, branch: string, settings: StreamSettings): Promise<StreamRecord> {
    const stream = this.streamOf(datasetRid, branch, settings);
    await this.datasets.dataset(datasetRid);
    if (!(await this.datasets.repo.branch(datasetRid, branch))) await this.datasets.createBranch(datasetRid, branch);
    if (!(await this.repo.insertStream(stream))) throw E.streamAlreadyExists(datasetRid, branch);
    return stream;
  }

  async get(datasetRid: string, branch: string): Promise<StreamRecord> {
    const found = await this.repo.stream(datasetRid, branch);
    if (!found) throw E.streamNotFound(datasetRid, branch);
    return found;
  }

  /** The stream a read or write names, at its current view; an older or unknown `viewRid` is ViewNotFound. */
  async at(datasetRid: string, branch: string, viewRid?: string): Promise<StreamRecord> {
    const stream = await this.get(datasetRid, branch);
    if (viewRid !== undefined && viewRid !== stream.viewRid) throw E.viewNotFound(viewRid);
    return stream;
  }

  async byView(viewRid: string): Promise<StreamRecord> {
    const found = await this.repo.streamByView(viewRid);
    if (!found) throw E.viewNotFound(viewRid);
    return found;
  }

  /** A new view with no records; settings not given keep the old view's. */
  async reset(datasetRid: string, branch: string, settings: Partial<StreamSettings>): Promise<StreamRecord> {
    const old = await this.get(datasetRid, branch);
    const next = this.streamOf(datasetRid, branch, {
      schema: settings.schema ?? old.schema,
      partitionsCount: settings.partitionsCount ?? old.partitionsCount,
      streamType: settings.streamType ?? old.streamType,
      compressed: settings.compressed ?? old.compressed,
    });
    if (!(await this.repo.replaceView(next))) throw E.streamNotFound(datasetRid, branch);
    return next;
  }

  /** Checks every record first (all or nothing), then appends them; answers the first offset written. */
  async publish(stream: StreamRecord, records: readonly unknown[], batch: boolean): Promise<ViewBounds & { written: number }> {
    if (records.length > MAX_BATCH_RECORDS) throw E.batchTooLarge(stream, records.length, MAX_BATCH_RECORDS);
    const texts: string[] = [];
    for (const [i, record] of records.entries()) {
      const problem = recordProblem(stream.schema, record);
      if (problem) throw E.recordDoesNotMatch(stream, problem.field, problem.problem, batch ? i : undefined);
      texts.push(this.sized(stream, JSON.stringify(record)));
    }
    return this.append(stream, texts);
  }

  /** A binary record: only for a stream whose schema is one binary field; kept as that field's base64. */
  async publishBinary(stream: StreamRecord, bytes: Buffer): Promise<ViewBounds & { written: number }> {
    const field = binaryField(stream.schema);
    if (field === undefined)
      throw E.recordDoesNotMatch(stream, '(binary record)', 'a binary record needs a stream whose schema is a single field of type binary');
    if (bytes.length > MAX_RECORD_BYTES) throw E.recordTooLarge(stream, bytes.length, MAX_RECORD_BYTES);
    return this.append(stream, [JSON.stringify({ [field]: bytes.toString('base64') })]);
  }

  /** Records from `startOffset` (default: the oldest kept); past the end offset is refused, at it is empty. */
  async read(stream: StreamRecord, startOffset: number | undefined, limit: number): Promise<{ bounds: ViewBounds; records: StoredRecord[] }> {
    const got = await this.repo.read(stream.viewRid, startOffset ?? 0, Math.min(limit, MAX_READ_RECORDS));
    if (!got) throw E.viewNotFound(stream.viewRid);
    if (startOffset !== undefined && startOffset > got.bounds.end) throw E.pastEnd(stream, startOffset, got.bounds.end);
    return got;
  }

  /** The end offset of each partition: records all go to partition "0"; the others stay empty. */
  async endOffsets(stream: StreamRecord): Promise<Record<string, number>> {
    const bounds = await this.repo.bounds(stream.viewRid);
    if (!bounds) throw E.viewNotFound(stream.viewRid);
    const out: Record<string, number> = {};
    for (let p = 0; p < stream.partitionsCount; p++) out[String(p)] = p === 0 ? bounds.end : 0;
    return out;
  }

  private sized(stream: StreamRecord, text: string): string {
    const bytes = Buffer.byteLength(text);
    if (bytes > MAX_RECORD_BYTES) throw E.recordTooLarge(stream, bytes, MAX_RECORD_BYTES);
    return text;
  }

  private async append(stream: StreamRecord, texts: string[]) {
    const done = await this.repo.append(stream.viewRid, texts, this.maxRecords);
    if (!done) throw E.viewNotFound(stream.viewRid);
    return done;
  }

  private streamOf(datasetRid: string, branch: string, s: StreamSettings): StreamRecord {
    const problem = schemaProblem(s.schema);
    if (problem) throw E.invalidSchema(problem);
    const streamType = (s.streamType ?? 'LOW_LATENCY') as StreamType;
    if (!STREAM_TYPES.includes(streamType)) throw E.invalidStreamType(s.streamType);
    const partitionsCount = s.partitionsCount ?? 1;
    if (!Number.isInteger(partitionsCount) || partitionsCount < 1 || partitionsCount > 64)
      throw E.invalidParameter('partitionsCount', `it must be a whole number from 1 to 64, got ${String(partitionsCount)}`);
    const schema = s.schema as StreamSchema;
    return {
      datasetRid,
      branch,
      viewRid: newViewRid(),
      schema: {
        fields: schema.fields,
        ...(schema.keyFieldNames ? { keyFieldNames: schema.keyFieldNames } : {}),
        ...(schema.changeDataCapture ? { changeDataCapture: schema.changeDataCapture } : {}),
      },
      partitionsCount,
      streamType,
      compressed: s.compressed ?? false,
    };
  }
}

export const wireStream = (s: StreamRecord) => ({
  branchName: s.branch,
  schema: s.schema,
  viewRid: s.viewRid,
  partitionsCount: s.partitionsCount,
  streamType: s.streamType,
  compressed: s.compressed,
});

/** A read's records as JSON text, built from the stored texts (no parse and re-encode per record). */
export const recordsJson = (records: readonly StoredRecord[]) => `[${records.map((r) => `{"offset":${r.offset},"value":${r.value}}`).join(',')}]`;
