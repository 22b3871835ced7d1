// The streams repository: what both stores offer (memory is the reference; docs/streams.md, "Offsets").
import type { StoredRecord, StreamRecord, ViewBounds } from './model.js';

export interface StreamsRepo {
  /** False when the branch has a stream already. */
  insertStream(stream: StreamRecord): Promise<boolean>;
  stream(datasetRid: string, branch: string): Promise<StreamRecord | undefined>;
  /** The stream whose current view this is (an older view of a reset stream is gone). */
  streamByView(viewRid: string): Promise<StreamRecord | undefined>;
  /** Every stream, in creation order. */
  streams(): Promise<StreamRecord[]>;
  /** Replaces the stream's view (and its settings) with `next`, forgetting the old view's records in the same step. */
  replaceView(next: StreamRecord): Promise<boolean>;
  /**
   * Appends records (JSON text) to a view at the next dense offsets, then drops the oldest past `maxRecords`,
   * in one step; answers the offset of the first record written and the bounds after, or undefined when the
   * view is gone (reset in between).
   */
  append(viewRid: string, values: readonly string[], maxRecords: number): Promise<(ViewBounds & { written: number }) | undefined>;
  /** Up to `limit` records from `from` (clamped to the oldest kept), with the view's bounds. */
  read(viewRid: string, from: number, limit: number): Promise<{ bounds: ViewBounds; records: StoredRecord[] } | undefined>;
  bounds(viewRid: string): Promise<ViewBounds | undefined>;
}
