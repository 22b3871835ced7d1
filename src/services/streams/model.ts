// What the streams service keeps (docs/streams.md): a stream per dataset branch, its current view, and the
// records of that view at dense offsets from 0. The wire schema shapes are those of @osdk/foundry.core 2.38.0.

export type StreamType = 'LOW_LATENCY' | 'HIGH_THROUGHPUT';
export const STREAM_TYPES: readonly StreamType[] = ['LOW_LATENCY', 'HIGH_THROUGHPUT'];

/** A field's type as the wire says it (`{type: "string"}`, `{type: "array", itemsSchema}`, ...). */
export interface FieldDataType {
  type: string;
  itemsSchema?: WireFieldSchema;
  keySchema?: WireFieldSchema;
  valueSchema?: WireFieldSchema;
  subFields?: WireField[];
  precision?: number;
  scale?: number;
}

export interface WireFieldSchema {
  nullable: boolean;
  customMetadata?: Record<string, unknown>;
  dataType: FieldDataType;
}

export interface WireField {
  name: string;
  schema: WireFieldSchema;
}

export interface StreamSchema {
  fields: WireField[];
  keyFieldNames?: string[];
  changeDataCapture?: unknown;
}

/** One stream: a dataset branch and its current view. */
export interface StreamRecord {
  datasetRid: string;
  branch: string;
  viewRid: string;
  schema: StreamSchema;
  partitionsCount: number;
  streamType: StreamType;
  compressed: boolean;
}

/** A stored record: its offset and its JSON text as published (after the schema check). */
export interface StoredRecord {
  offset: number;
  value: string;
}

/** Where a view's records start (the oldest kept) and end (the offset the next record gets). */
export interface ViewBounds {
  first: number;
  end: number;
}
