// The header row a passthrough read takes (docs/datasets.md, "CSV: the byte scan and passthrough"): the first
// line, ended by LF or CRLF, a BOM skipped, no quote in it; its names must be the read's columns, in order. One
// rule for the read (csv-bytes.ts) and for what an upload's learning keeps (csv-learn-feed.ts, csv-learn.ts).
// Kept apart from csv-bytes.ts so that a worker that only learns does not load the readers.

const LF = 10;
const CR = 13;
const QUOTE = 34;

/** The header row's names and its length with its line end, or undefined: no line end yet, or a quote in it. */
export function headerRow(start: Buffer): { names: string[]; row: Buffer; bytes: number } | undefined {
  const lineEnd = start.indexOf(LF);
  if (lineEnd < 0) return undefined;
  const bom = start[0] === 0xef && start[1] === 0xbb && start[2] === 0xbf ? 3 : 0;
  const row = start.subarray(bom, lineEnd > bom && start[lineEnd - 1] === CR ? lineEnd - 1 : lineEnd);
  if (row.includes(QUOTE)) return undefined;
  return { names: row.toString('utf8').split(','), row, bytes: lineEnd + 1 };
}

/** The columns' names at their positions, nothing more (the tokenizers' rule: the first cell of a name is its). */
export const namesFit = (names: readonly string[], columns: readonly { name: string }[]): boolean =>
  names.length === columns.length && columns.every((c, i) => names.indexOf(c.name) === i);
