// Parquet to ARROW without re-encoding (docs/datasets.md, "Parquet to ARROW without re-encoding"): parquet-wasm's
// record batches go out as bytes after the answer's one schema message when the columns fit the answer's layout
// (millisecond timestamps scaled to microseconds in place), and are decoded as before when they do not. Either
// way the answer is one valid stream with the same values, which apache-arrow and pyarrow both read.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MessageHeader, MessageReader, tableFromIPC } from 'apache-arrow';
import { MemoryBlobs } from '../../src/blobs/memory-blobs.js';
import type { DatasetSchema } from '../../src/services/datasets/model.js';
import { planColumns, tableBytes } from '../../src/services/datasets/table/read-table.js';
import { passthroughBatch } from '../../src/services/datasets/table/arrow-ipc.js';
import { parquetWasm } from '../../src/services/datasets/table/parquet-wasm.js';
import { all, parquetBytes, stored } from './helpers.js';

const schemaOf = (spec: string[]): DatasetSchema => ({
  fieldSchemaList: spec.map((s) => ({ name: s.split(':')[0]!, type: s.split(':')[1]!, nullable: true })) as DatasetSchema['fieldSchemaList'],
});
const FITTING = schemaOf(['sensor:STRING', 'value:DOUBLE', 'count:LONG', 'ok:BOOLEAN', 'day:DATE', 'at:TIMESTAMP']);
const columnsOf = (schema: DatasetSchema, wanted: string[] = []) => {
  const planned = planColumns(schema, wanted);
  if (!Array.isArray(planned)) throw new Error(planned.problem);
  return planned;
};

const rows = (count: number, from = 0) =>
  Array.from({ length: count }, (_, k) => {
    const i = from + k;
    return {
      sensor: `s${i % 7}`,
      ...(i % 5 === 0 ? {} : { value: i / 4 }),
      count: BigInt(i * 1_000_003),
      ok: i % 3 === 0,
      day: new Date(Date.UTC(2026, 0, 1 + (i % 300))),
      at: new Date(Date.UTC(2026, 0, 1) + i * 1001),
    };
  });

/** The header types of an IPC stream's messages, in order. */
function messageTypes(stream: Buffer): MessageHeader[] {
  const reader = new MessageReader(stream);
  const types: MessageHeader[] = [];
  for (let message = reader.readMessage(); message; message = reader.readMessage()) {
    types.push(message.headerType);
    reader.readMessageBody(message.bodyLength);
  }
  return types;
}

/** Every row as plain values (bigints and dates as strings), for comparing two answers. */
const valuesOf = (stream: Buffer) =>
  tableFromIPC(stream)
    .toArray()
    .map((r) => JSON.stringify(r.toJSON(), (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)));

describe('Parquet to ARROW passthrough', () => {
  it('takes parquet-wasm record batches when the columns fit, and declines other types, orders and units', async () => {
    const wasm = await parquetWasm();
    const bytes = await parquetBytes(rows(50), 'TIMESTAMP_MILLIS');
    const ipcOf = () => wasm.readParquet(new Uint8Array(bytes)).intoIPCStream();
    const passed = passthroughBatch(ipcOf(), columnsOf(FITTING));
    expect(passed?.length).toBe(50);
    // A column of another type (LONG read as INTEGER), another order, or fewer columns: decoded instead.
    expect(
      passthroughBatch(ipcOf(), columnsOf(schemaOf(['sensor:STRING', 'value:DOUBLE', 'count:INTEGER', 'ok:BOOLEAN', 'day:DATE', 'at:TIMESTAMP']))),
    ).toBeUndefined();
    expect(passthroughBatch(ipcOf(), columnsOf(FITTING, ['value', 'sensor', 'count', 'ok', 'day', 'at']))).toBeUndefined();
    expect(passthroughBatch(ipcOf(), columnsOf(FITTING, ['sensor', 'value']))).toBeUndefined();
    expect(passthroughBatch(Buffer.from('not an ipc stream at all'), columnsOf(FITTING))).toBeUndefined();
  });

  it('answers one stream (one schema message) with the same values as the decoding path, CSV and Parquet files mixed', async () => {
    const blobs = new MemoryBlobs();
    const csv = `sensor,value,count,ok,day,at\nc1,1.5,7,true,2026-02-01,2026-02-01T00:00:00.123Z\nc2,,8,false,2026-02-02,2026-02-02T00:00:00Z\n`;
    const files = await stored(blobs, {
      'a.csv': Buffer.from(csv),
      'b.parquet': await parquetBytes(rows(40_000), 'TIMESTAMP_MILLIS'),
      'c.parquet': await parquetBytes(rows(30, 40_000), 'TIMESTAMP_MICROS'),
    });
    const columns = columnsOf(FITTING);
    const passed = await all(tableBytes('ARROW', files, blobs, columns, FITTING));
    // A row limit past the end takes every row through the decoding path (no passthrough under a limit).
    const decoded = await all(tableBytes('ARROW', files, blobs, columns, FITTING, 1_000_000));
    const types = messageTypes(passed);
    expect(types.filter((t) => t === MessageHeader.Schema)).toHaveLength(1);
    expect(types[0]).toBe(MessageHeader.Schema);
    expect(types.filter((t) => t === MessageHeader.RecordBatch).length).toBeGreaterThan(2);
    const table = tableFromIPC(passed);
    expect(table.schema.fields.map((f) => `${f.name}:${String(f.type)}`)).toEqual(
      tableFromIPC(decoded).schema.fields.map((f) => `${f.name}:${String(f.type)}`),
    );
    expect(table.numRows).toBe(2 + 40_000 + 30);
    expect(valuesOf(passed)).toEqual(valuesOf(decoded));
    // Milliseconds scaled to the answer's microseconds, nulls kept.
    expect(table.getChild('at')!.get(2 + 123)).toBe(Date.UTC(2026, 0, 1) + 123 * 1001);
    expect(table.getChild('value')!.get(2 + 5)).toBeNull();

    // pyarrow (what the Python SDK decodes with) reads the same rows; skipped without the test virtualenv.
    const python = '.venv/bin/python';
    if (!existsSync(python)) return;
    const run = spawnSync(
      python,
      [
        '-c',
        'import sys, pyarrow.ipc as i; t = i.open_stream(sys.stdin.buffer).read_all(); print(t.num_rows, t.schema.field("at").type, t.column("count")[40001])',
      ],
      { input: passed },
    );
    expect(run.stderr.toString()).toBe('');
    expect(run.stdout.toString().trim()).toBe(`40032 timestamp[us, tz=UTC] ${39_999 * 1_000_003}`);
  });
});
