// The Parquet file the benches read: `rows` rows of string, double, int64, boolean and timestamp columns, in row
// groups of 100,000, written by @dsnp/parquetjs (the same rows as the datasets bench's CSV file).
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ParquetSchema, ParquetWriter } from '@dsnp/parquetjs';
import type { DatasetSchema } from '../../src/services/datasets/model.js';

export async function writeBenchParquet(file: string, rows: number): Promise<void> {
  const schema = new ParquetSchema({
    sensor: { type: 'UTF8' },
    value: { type: 'DOUBLE' },
    count: { type: 'INT64' },
    ok: { type: 'BOOLEAN' },
    at: { type: 'TIMESTAMP_MILLIS' },
  });
  const writer = await ParquetWriter.openFile(schema, file, { rowGroupSize: 100_000 } as never);
  for (let i = 0; i < rows; i++)
    await writer.appendRow({ sensor: `s${i % 100}`, value: i / 3, count: BigInt(i), ok: i % 2 === 0, at: new Date(1_767_225_600_000 + i * 1000) });
  await writer.close();
}

/** The dataset schema of that file's columns, as the emulator's putSchema takes it. */
export const BENCH_PARQUET_SCHEMA: DatasetSchema = {
  fieldSchemaList: ['STRING:sensor', 'DOUBLE:value', 'LONG:count', 'BOOLEAN:ok', 'TIMESTAMP:at'].map((s) => ({
    type: s.split(':')[0]!,
    name: s.split(':')[1]!,
    nullable: true,
  })),
} as DatasetSchema;

/** The file's bytes, written once per row count to the system's temporary folder (1,000,000 rows take seconds). */
export async function cachedBenchParquet(rows: number): Promise<Buffer> {
  const dir = join(tmpdir(), 'parquet-read-bench');
  const file = join(dir, `bench-${rows}.parquet`);
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    await writeBenchParquet(`${file}.part`, rows);
    renameSync(`${file}.part`, file);
  }
  return readFileSync(file);
}
