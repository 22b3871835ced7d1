// An ARROW read of a CSV file from its bytes (docs/datasets.md, "CSV -> ARROW from the bytes"): the header row
// gives each read column its cell position, csv-cells.ts reads each stretch of whole lines into the columns'
// slots (csv-columns.ts), and each stretch becomes one batch of Arrow data: no string per cell, no object per
// row. The first record it cannot take (a refused value, a ragged line, a stray quote) ends the batch before
// it; that record and the rest go to the tokenizers (csv-bytes.ts), which read them or give the same error,
// naming the file, line and column, as a read without this path.
import type { Data } from 'apache-arrow';
import type { ColumnBatch } from './arrow-vectors.js';
import type { Column } from './columns.js';
import type { StretchReader } from './csv-bytes.js';
import { readCells, type CellLayout } from './csv-cells.js';
import { PIECE_BYTES } from './csv-records.js';
import { Slot } from './csv-columns.js';

const LF = 10;
const CR = 13;
const QUOTE = 34;
/** A batch per 512 KiB of file: fewer batches cost less per row (each has its message, its arrays, its turns). */
const STRETCH_BYTES = 8 * PIECE_BYTES;

/**
 * The layout a header row gives (BOM skipped, unquoted, every read column's name in it: the first cell of that
 * name, as the tokenizers take it), and each read column's slot; undefined when the tokenizers should read it.
 */
export function layoutOf(start: Buffer, columns: readonly Column[]): { layout: CellLayout; slots: Slot[] } | undefined {
  const lineEnd = start.indexOf(LF);
  if (lineEnd < 0) return undefined;
  const bom = start[0] === 0xef && start[1] === 0xbb && start[2] === 0xbf ? 3 : 0;
  const crlf = lineEnd > bom && start[lineEnd - 1] === CR;
  const header = start.subarray(bom, crlf ? lineEnd - 1 : lineEnd);
  if (header.includes(QUOTE) || header.includes(CR)) return undefined;
  const names = header.toString('utf8').split(',');
  const slotOf: (Slot | undefined)[] = names.map(() => undefined);
  const slots: Slot[] = [];
  for (const column of columns) {
    const at = names.indexOf(column.name);
    if (at < 0) return undefined;
    slots.push((slotOf[at] ??= new Slot(column)));
  }
  return { layout: { width: names.length, slotOf, crlf }, slots };
}

/** A reader for readStretches that makes each stretch of records one batch of Arrow data. */
export function arrowColumns(columns: readonly Column[]): StretchReader<ColumnBatch> {
  let found: ReturnType<typeof layoutOf>;
  return {
    stretchBytes: STRETCH_BYTES,
    // Each batch's arrays are its own (STRING bytes copied, ranges only kept in the slots).
    copiesOut: true,
    header(start) {
      found = layoutOf(start, columns);
      return found !== undefined;
    },
    read(buf, limit) {
      const { layout, slots } = found!;
      const scan = readCells(buf, 0, limit, layout);
      if (scan.records === 0) return scan;
      const made = new Map<Slot, Data>();
      const data = slots.map((slot) => made.get(slot) ?? made.set(slot, slot.finish(buf, scan.records)).get(slot)!);
      return { ...scan, out: { length: scan.records, columns: data } };
    },
  };
}
