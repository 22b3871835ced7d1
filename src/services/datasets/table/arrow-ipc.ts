// Arrow IPC record batches passed through as bytes (docs/datasets.md, "Parquet to ARROW without re-encoding"):
// when the columns a Parquet read decodes already have the layout of the answer's schema, the record batch
// messages parquet-wasm writes are sent as they are, after the answer's own schema message. A record batch
// message names no types (only each column's length, null count and buffer regions), so it fits any schema whose
// columns lay out their buffers the same way. Timestamps in a coarser unit than the answer's are scaled in place.
import { DataType, Message, MessageHeader, type Field, type Schema, type Timestamp } from 'apache-arrow';
import type { Column } from './columns.js';
import { giveAway } from './handover.js';

/** Record batch messages, framed (continuation marker, length, metadata, body), ready to follow a schema message. */
export interface IpcBatch {
  length: number;
  ipc: Uint8Array;
}

export const isIpcBatch = (batch: unknown): batch is IpcBatch => (batch as Partial<IpcBatch>).ipc instanceof Uint8Array;

/** Buffers per column (validity first) of the flat types passed through; others are decoded as before. */
function bufferCount(type: DataType): number | undefined {
  if (type.children?.length) return undefined;
  if (DataType.isUtf8(type)) return 3; // validity, offsets, bytes
  if (DataType.isInt(type) || DataType.isFloat(type) || DataType.isBool(type) || DataType.isTimestamp(type)) return 2;
  if (DataType.isDate(type)) return 2;
  return undefined;
}

/** A column's values buffer to scale (a timestamp unit coarser than the answer's), by its index in the message. */
interface Scale {
  buffer: number;
  factor: bigint;
}

/**
 * How the file's columns map onto the answer's: undefined unless they are the same columns in the same order,
 * each of the answer's type, or a timestamp in a unit the answer's divides exactly (seconds or milliseconds into
 * microseconds).
 */
function planOf(fields: readonly Field[], columns: readonly Column[]): Scale[] | undefined {
  if (fields.length !== columns.length) return undefined;
  const scales: Scale[] = [];
  let buffer = 0;
  for (let i = 0; i < fields.length; i++) {
    const from = fields[i]!.type;
    const to = columns[i]!.type;
    if (fields[i]!.name !== columns[i]!.name) return undefined;
    const count = bufferCount(from);
    if (count === undefined || bufferCount(to) !== count) return undefined;
    if (DataType.isTimestamp(from) && DataType.isTimestamp(to)) {
      const steps = (to as Timestamp).unit - (from as Timestamp).unit;
      if (steps < 0) return undefined;
      if (steps > 0) scales.push({ buffer: buffer + 1, factor: 1000n ** BigInt(steps) });
    } else if (String(from) !== String(to)) return undefined;
    buffer += count;
  }
  return scales;
}

/** Multiplies each 64-bit value of `bytes` (a values buffer) by `factor`, in place. */
function scaleInPlace(bytes: Uint8Array, factor: bigint): void {
  const aligned = bytes.byteOffset % 8 === 0;
  const values = aligned ? new BigInt64Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 3) : new BigInt64Array(bytes.slice().buffer);
  // Each value as two 32-bit words (no BigInt per value) while the product stays below 2^53, where a double is exact.
  const words = new Int32Array(values.buffer, values.byteOffset, values.length * 2);
  const times = Number(factor);
  const limit = Number.MAX_SAFE_INTEGER / times;
  for (let i = 0, w = 0; i < values.length; i++, w += 2) {
    const value = words[w + 1]! * 4294967296 + (words[w]! >>> 0);
    if (value > limit || value < -limit) {
      values[i]! *= factor;
      continue;
    }
    const product = value * times;
    const high = Math.floor(product / 4294967296);
    words[w] = product - high * 4294967296;
    words[w + 1] = high;
  }
  if (!aligned) bytes.set(new Uint8Array(values.buffer));
}

/** What a record batch message's header says (apache-arrow's metadata class, not exported as a type). */
interface BatchHeader {
  length: number | bigint;
  compression: unknown;
  buffers: Array<{ offset: number | bigint; length: number | bigint }>;
}

interface Framed {
  message: Message;
  /** Where the message starts (its continuation marker), its body starts, and it ends. */
  start: number;
  body: number;
  end: number;
}

/** The messages of an IPC stream, with their places; stops at the end-of-stream marker. */
function framedMessages(stream: Uint8Array): Framed[] | undefined {
  const view = new DataView(stream.buffer, stream.byteOffset, stream.byteLength);
  const out: Framed[] = [];
  for (let at = 0; at + 4 <= stream.length;) {
    const continued = view.getUint32(at, true) === 0xffffffff;
    const lengthAt = continued ? at + 4 : at;
    if (lengthAt + 4 > stream.length) return undefined;
    const metadataLength = view.getInt32(lengthAt, true);
    if (metadataLength === 0) break;
    const body = lengthAt + 4 + metadataLength;
    if (metadataLength < 0 || body > stream.length) return undefined;
    const message = Message.decode(stream.subarray(lengthAt + 4, body));
    const end = body + message.bodyLength;
    if (end > stream.length) return undefined;
    out.push({ message, start: at, body, end });
    at = end;
  }
  return out;
}

/**
 * The record batches of one IPC stream (a schema message, record batches, the end marker) as an IpcBatch for an
 * answer of `columns`, or undefined when they cannot go as they are (the caller then decodes them). Mutates
 * `stream` (timestamp scaling) only once it knows the batch passes.
 */
export function passthroughBatch(stream: Uint8Array, columns: readonly Column[]): IpcBatch | undefined {
  const messages = framedMessages(stream);
  const schema = messages?.[0];
  if (!schema || schema.message.headerType !== MessageHeader.Schema) return undefined;
  const scales = planOf((schema.message.header() as Schema).fields, columns);
  if (!scales) return undefined;
  const batches = messages.slice(1);
  let length = 0;
  for (const { message } of batches) {
    if (message.headerType !== MessageHeader.RecordBatch) return undefined; // a dictionary: decoded instead
    const header = message.header() as unknown as BatchHeader;
    if (header.compression || scales.some(({ buffer }) => !header.buffers[buffer])) return undefined;
    length += Number(header.length);
  }
  for (const { message, body } of batches) {
    const regions = (message.header() as unknown as BatchHeader).buffers;
    for (const { buffer, factor } of scales) {
      const region = regions[buffer]!;
      scaleInPlace(stream.subarray(body + Number(region.offset), body + Number(region.offset) + Number(region.length)), factor);
    }
  }
  if (batches.length === 0) return { length: 0, ipc: new Uint8Array(0) };
  // The rest of `stream` (its schema and end messages) is of no use to anyone: the view may take the buffer along.
  return { length, ipc: giveAway(stream.subarray(batches[0]!.start, batches[batches.length - 1]!.end)) };
}
