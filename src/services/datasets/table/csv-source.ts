// Rows of one CSV file of a view (header row first), parsed as they stream from the byte store by csv-parse,
// converted to the schema's column types, in batches (docs/datasets.md, "Table reads").
import type { Readable } from 'node:stream';
import { parse, CsvError } from 'csv-parse';
import type { Cell, Column } from './columns.js';
import { TableReadError } from './table-error.js';

export async function* csvRows(path: string, bytes: Readable, columns: readonly Column[], batchRows: number): AsyncGenerator<Cell[][]> {
  // No `info: true`: it tripled the parse time; a row's line is counted here (a quoted line break shifts it).
  const parser = bytes.pipe(parse({ bom: true, skip_empty_lines: true }));
  bytes.on('error', (err) => parser.destroy(err));
  let positions: number[] | undefined;
  let batch: Cell[][] = [];
  let line = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      line += 1;
      if (!positions) {
        positions = columns.map((c) => {
          const at = record.indexOf(c.name);
          if (at < 0) throw new TableReadError(`${path}: the schema's column "${c.name}" is not in the header row (${record.slice(0, 20).join(', ')})`);
          return at;
        });
        continue;
      }
      const row = new Array<Cell>(columns.length);
      for (let i = 0; i < columns.length; i++) {
        try {
          row[i] = columns[i]!.fromText(record[positions[i]!] ?? '');
        } catch (err) {
          throw new TableReadError(`${path} line ${line}, column "${columns[i]!.name}": ${(err as Error).message}`);
        }
      }
      batch.push(row);
      if (batch.length >= batchRows) {
        yield batch;
        batch = [];
      }
    }
  } catch (err) {
    if (err instanceof CsvError) throw new TableReadError(`${path} line ${(err as CsvError & { lines?: number }).lines ?? '?'}: ${err.message}`);
    throw err;
  } finally {
    bytes.destroy();
  }
  if (batch.length > 0) yield batch;
}
