// The rows the warm-ups run through a read's code (a table worker's Parquet reads, warm-read.ts; a split read's
// helper's CSV writers, text-warmup.ts): each common column type, with nulls, doubles of 15 to 17 digits and
// integers among them, so that each way of each column's writer runs.
import { Bool, DateDay, Float64, Int64, Table, TimestampMillisecond, Utf8, vectorFromArray } from 'apache-arrow';
import type { DatasetSchema } from '../model.js';

/** The schema of those rows. */
export const WARMUP_SCHEMA: DatasetSchema = {
  fieldSchemaList: ['sensor:STRING', 'value:DOUBLE', 'count:LONG', 'ok:BOOLEAN', 'day:DATE', 'at:TIMESTAMP'].map((s) => ({
    name: s.split(':')[0]!,
    type: s.split(':')[1]!,
    nullable: true,
  })),
} as DatasetSchema;

export function warmupRows(rows: number): Table {
  const each = <T>(value: (i: number) => T) => Array.from({ length: rows }, (_v, i) => value(i));
  return new Table({
    sensor: vectorFromArray(
      each((i) => `s${i % 13}`),
      new Utf8(),
    ),
    value: vectorFromArray(
      each((i) => (i % 50 === 0 ? null : i / 3)),
      new Float64(),
    ),
    count: vectorFromArray(
      each((i) => BigInt(i * 7919)),
      new Int64(),
    ),
    ok: vectorFromArray(
      each((i) => i % 3 === 0),
      new Bool(),
    ),
    day: vectorFromArray(
      each((i) => new Date(Date.UTC(2026, 0, 1 + (i % 500)))),
      new DateDay(),
    ),
    at: vectorFromArray(
      each((i) => 1_767_225_600_000 + i * 1_001),
      new TimestampMillisecond(),
    ),
  });
}
