// A CSV file's records (header row first) as they stream from the byte store, in batches of about 64 KiB of
// text (docs/datasets.md, "CSV"). Two tokenizers, chosen by bench/csv-parsers.ts: uDSV, six times faster, for
// the stretch of a file that holds no double quote (there every line break ends a record, so the text is cut at
// whole lines and each batch carries its own source text, which a passthrough read can send as it is), and
// csv-parse, which is strict about quotes, from the first piece that holds one to the end of the file.
import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { parse, CsvError } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import { inferSchema, initParser, type Parser } from 'udsv';
import { setImmediate as tick } from 'node:timers/promises';
import { TableReadError } from './table-error.js';

/** Text handed to a tokenizer at once: small enough that one batch blocks the event loop for little time. */
export const PIECE_BYTES = 64 * 1024;
/** Records per batch on the csv-parse stretch. */
const SLOW_BATCH = 1_000;

export interface RecordBatch {
  records: string[][];
  /** The exact source text of these records (whole lines), on the quote-free stretch only. */
  text?: string;
}

/** The file's text, decoded, without a byte order mark, in pieces of at most PIECE_BYTES. */
async function* textPieces(bytes: AsyncIterable<Buffer>): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let first = true;
  for await (const chunk of bytes) {
    for (let at = 0; at < chunk.length; at += PIECE_BYTES) {
      let text = decoder.write(chunk.subarray(at, at + PIECE_BYTES));
      if (first && text.length > 0) {
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
        first = false;
      }
      if (text.length > 0) yield text;
    }
  }
  const rest = decoder.end();
  if (rest.length > 0) yield rest;
}

/**
 * On quote-free text uDSV reads a fixed number of cells per record: a short or long line shows as a cell holding
 * a line break or (the last) a comma, or a record left out at the end. Counting lines and commas (native indexOf)
 * proves the records right in one pass; when the counts disagree, csv-parse reads the batch again and its
 * records are taken, so that a ragged line is named (and a batch that only had empty lines is read right).
 */
function checkedRecords(path: string, body: string, records: string[][], width: number, firstLine: number): string[][] {
  let lines = 0;
  for (let at = body.indexOf('\n'); at >= 0; at = body.indexOf('\n', at + 1)) lines++;
  let commas = 0;
  for (let at = body.indexOf(','); at >= 0; at = body.indexOf(',', at + 1)) commas++;
  if (lines === records.length && commas === records.length * (width - 1)) return records;
  const strict = parseSync(body, { skip_empty_lines: true, relax_column_count: true }) as string[][];
  strict.forEach((record, r) => {
    if (record.length !== width) throw new TableReadError(`${path} line ${firstLine + r}: the record has ${record.length} fields, the header row ${width}`);
  });
  return strict;
}

/**
 * Both line ends a record may have, CRLF first: a file may mix them, as uDSV's stretch allows too. Given
 * explicitly, because csv-parse left to find one looks for it at every byte of its first record (three buffers
 * made per byte: a 10 MB record took seconds).
 */
const LINE_ENDS = ['\r\n', '\n'];

/**
 * The rest of a file from its first double quote on, through csv-parse; at most `most` records (csv-parse's `to`:
 * it stops at the end of the last one, so nothing after it is tokenized or can fail).
 */
async function* strictRecords(path: string, head: string, rest: AsyncIterator<string>, linesBefore: number, most = Infinity): AsyncGenerator<RecordBatch> {
  async function* source(): AsyncGenerator<Buffer> {
    if (head.length > 0) yield Buffer.from(head);
    for (let next = await rest.next(); !next.done; next = await rest.next()) {
      // A file in memory arrives without waiting on I/O, and a record only ends a batch when it is whole: a turn
      // of the event loop per piece keeps a huge record from holding it for the whole read.
      await tick();
      yield Buffer.from(next.value);
    }
  }
  const input = Readable.from(source(), { objectMode: false });
  // No `info: true`: it tripled the parse time; records are counted by the caller instead.
  const parser = input.pipe(
    parse({ skip_empty_lines: true, relax_column_count: true, record_delimiter: LINE_ENDS, ...(most === Infinity ? {} : { to: most }) }),
  );
  input.on('error', (err) => parser.destroy(err));
  let batch: string[][] = [];
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      batch.push(record);
      if (batch.length >= SLOW_BATCH) {
        yield { records: batch };
        batch = [];
      }
    }
  } catch (err) {
    if (err instanceof CsvError) {
      const lines = (err as CsvError & { lines?: number }).lines;
      throw new TableReadError(`${path} line ${lines === undefined ? '?' : linesBefore + lines}: ${err.message}`);
    }
    throw err;
  } finally {
    input.destroy();
  }
  if (batch.length > 0) yield { records: batch };
}

/** Whether whole lines of text end otherwise than with `lineEnd` anywhere (native searches, one pass or two). */
function mixedLineEnds(body: string, lineEnd: string): boolean {
  if (lineEnd === '\n') return body.includes('\r');
  let crlf = 0;
  for (let at = body.indexOf('\r\n'); at >= 0; at = body.indexOf('\r\n', at + 2)) crlf++;
  let lf = 0;
  for (let at = body.indexOf('\n'); at >= 0; at = body.indexOf('\n', at + 1)) lf++;
  return crlf !== lf;
}

/**
 * Where the first `count` records of quote-free whole lines end (an empty line is no record, as the tokenizers
 * skip it), or -1 when the text holds fewer.
 */
function recordsEnd(body: string, count: number): number {
  let from = 0;
  for (let at = body.indexOf('\n'); at >= 0; at = body.indexOf('\n', from)) {
    const empty = at === from || (at === from + 1 && body.charCodeAt(from) === 13);
    from = at + 1;
    if (!empty && --count === 0) return from;
  }
  return -1;
}

/**
 * The records, header row first; `recordsBefore` records of the file were read before (by the byte scan,
 * csv-bytes.ts), so that line numbers in errors count from the file's start. With `most`, the records (the
 * header row included) stop there: the text after them is never tokenized, so a ragged line or a stray quote
 * past a row limit fails nothing.
 */
export async function* csvRecords(path: string, bytes: AsyncIterable<Buffer>, recordsBefore = 0, most = Infinity): AsyncGenerator<RecordBatch> {
  if (most <= 0) return;
  const pieces = textPieces(bytes)[Symbol.asyncIterator]();
  let carry = '';
  let parser: Parser | undefined;
  let width = 0;
  let lineEnd: string | undefined;
  let lines = recordsBefore;
  let given = 0;
  const fast = (body: string): RecordBatch => {
    const records = checkedRecords(path, body, parser!.stringArrs(body), width, lines + 1);
    lines += records.length;
    given += records.length;
    return { records, text: body };
  };
  try {
    for (let next = await pieces.next(); !next.done; next = await pieces.next()) {
      const text = next.value;
      const all = carry + text;
      const cut = all.lastIndexOf('\n');
      // A quote, a header of one column (which uDSV 0.7.3 misreads), or no line break for a long while (a
      // lone-CR file, a huge record): csv-parse takes the file from here.
      const header = parser ? '' : all.slice(0, all.indexOf('\n'));
      if (text.includes('"') || (cut >= 0 && !parser && !header.includes(',')) || (cut < 0 && all.length > 8 * PIECE_BYTES)) {
        yield* strictRecords(path, all, pieces, lines, most - given);
        return;
      }
      if (cut < 0) {
        carry = all;
        continue;
      }
      const body = all.slice(0, cut + 1);
      lineEnd ??= body[body.indexOf('\n') - 1] === '\r' ? '\r\n' : '\n';
      // uDSV splits on one line end only: a line ending unlike the header row (a bare LF in a CRLF file, a CRLF
      // in an LF file) would fail it or leave a CR in a cell. csv-parse, told both, takes the file from here.
      if (mixedLineEnds(body, lineEnd)) {
        yield* strictRecords(path, all, pieces, lines, most - given);
        return;
      }
      carry = all.slice(cut + 1);
      if (!parser) {
        parser = initParser(inferSchema(body, { col: ',', encl: '"', header: () => [] }));
        width = parser.schema.cols.length;
      }
      // The records wanted end in this text: the lines after them are left untokenized.
      const end = most === Infinity ? -1 : recordsEnd(body, most - given);
      if (end >= 0) {
        yield fast(body.slice(0, end));
        return;
      }
      yield fast(body);
    }
    // A last line without its line break gets one, so that a passthrough read can put the next file after it.
    if (carry.trim().length > 0) {
      if (!parser) {
        yield* strictRecords(path, carry, pieces, lines, most - given);
        return;
      }
      yield fast(`${carry}\n`);
    }
  } finally {
    await pieces.return?.(undefined);
  }
}
