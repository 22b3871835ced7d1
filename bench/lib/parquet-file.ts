// The Parquet file the benches read: `rows` rows of string, double, int64, boolean and timestamp columns, in row
// groups of 100,000, written by @dsnp/parquetjs (the same rows as the datasets bench's CSV file).
import { ParquetSchema, ParquetWriter } from '@dsnp/parquetjs';

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
