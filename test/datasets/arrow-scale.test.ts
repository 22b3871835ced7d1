// A passed-through Parquet batch's coarser timestamps are scaled to the answer's microseconds in place
// (table/arrow-ipc.ts, docs/datasets.md "Parquet to ARROW without re-encoding"), as two 32-bit words per value
// while the product fits a double exactly, and as a bigint past that: both must give value × 1000, sign kept.
import { describe, expect, it } from 'vitest';
import { Table, TimestampMillisecond, makeData, makeVector, tableFromIPC, tableToIPC } from 'apache-arrow';
import type { DatasetSchema } from '../../src/services/datasets/model.js';
import { passthroughBatch } from '../../src/services/datasets/table/arrow-ipc.js';
import { planColumns } from '../../src/services/datasets/table/read-table.js';

const schema: DatasetSchema = { fieldSchemaList: [{ name: 'at', type: 'TIMESTAMP', nullable: true }] } as DatasetSchema;

describe('timestamps scaled in a passed-through batch', () => {
  it('multiplies milliseconds into microseconds exactly, negative and huge values included, nulls kept', () => {
    const limit = BigInt(Math.floor(Number.MAX_SAFE_INTEGER / 1000));
    const millis = [
      0n,
      1n,
      -1n,
      1_767_225_600_123n,
      -62_167_219_200_000n,
      limit,
      limit + 1n,
      -limit,
      -limit - 1n,
      2n ** 52n + 1n,
      -(2n ** 52n) - 3n,
      4_294_967_295n,
      -4_294_967_296n,
    ];
    const values = BigInt64Array.from(millis);
    const nullBitmap = Uint8Array.of(0b1111_1101, 0b1111_1111);
    const data = makeData({ type: new TimestampMillisecond(), length: millis.length, nullCount: 1, nullBitmap, data: values });
    const stream = tableToIPC(new Table({ at: makeVector(data) }), 'stream');
    const columns = planColumns(schema, []);
    if (!Array.isArray(columns)) throw new Error(columns.problem);
    const passed = passthroughBatch(stream, columns);
    expect(passed?.length).toBe(millis.length);
    // The stream was scaled in place: its values (typed as milliseconds still) are now the microseconds.
    const read = tableFromIPC(stream).getChild('at')!.data[0]!;
    const scaled = Array.from(read.values as BigInt64Array);
    expect(scaled.filter((_v, i) => i !== 1)).toEqual(millis.map((m) => m * 1000n).filter((_v, i) => i !== 1));
    expect(read.getValid(1)).toBe(false);
  });
});
