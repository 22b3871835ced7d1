// `npx tsx bench/csv-parsers.ts [MB]`: the CSV tokenizers considered for readTable, on one generated file of MB
// megabytes (default 20; the datasets bench's columns: string, double, long, boolean, timestamp), fed in 64 KiB
// pieces as the byte store hands them out. Each turns every record into its cells (string arrays) and touches
// them, three times; the best rate and the heap growth are printed. The numbers chose uDSV (docs/datasets.md,
// "CSV").
import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { parse as csvParse } from 'csv-parse';
import Papa from 'papaparse';
import { initParser, inferSchema } from 'udsv';

const MB = Number(process.argv[2] ?? 20);
const PIECE = 64 * 1024;

function makeFile(): Buffer {
  const lines = ['sensor,value,count,ok,at'];
  let size = 0;
  for (let i = 0; size < MB * 1048576; i++) {
    const line = `s${i % 100},${(i / 3).toFixed(4)},${i},${i % 2 === 0},2026-01-01T00:00:${String(i % 60).padStart(2, '0')}Z`;
    lines.push(line);
    size += line.length + 1;
  }
  return Buffer.from(lines.join('\n') + '\n');
}

const file = makeFile();
const pieces = (): Buffer[] => {
  const out: Buffer[] = [];
  for (let at = 0; at < file.length; at += PIECE) out.push(file.subarray(at, at + PIECE));
  return out;
};

async function viaCsvParse(): Promise<number> {
  let rows = 0;
  let touched = 0;
  for await (const record of Readable.from(pieces()).pipe(csvParse({ bom: true, skip_empty_lines: true })) as AsyncIterable<string[]>) {
    rows++;
    touched += record[1]!.length;
  }
  return touched > 0 ? rows : -1;
}

async function viaUdsv(): Promise<number> {
  const decoder = new StringDecoder('utf8');
  let rows = 0;
  let touched = 0;
  let parser: ReturnType<typeof initParser> | undefined;
  const onRow = (row: string[]) => {
    rows++;
    touched += row[1]!.length;
  };
  for (const piece of pieces()) {
    const text = decoder.write(piece);
    if (!parser) parser = initParser(inferSchema(text, { col: ',', encl: '"', header: () => [] }));
    parser.chunk<string[]>(text, parser.stringArrs, onRow);
  }
  parser!.end();
  return touched > 0 ? rows : -1;
}

async function viaPapaparse(): Promise<number> {
  const decoder = new StringDecoder('utf8');
  let rows = 0;
  let touched = 0;
  // Papa's chunked mode wants whole lines; the partial last line is carried over by hand.
  let carry = '';
  const take = (text: string) => {
    const result = Papa.parse<string[]>(text, { delimiter: ',', newline: '\n', skipEmptyLines: true });
    for (const row of result.data) {
      rows++;
      touched += row[1]!.length;
    }
  };
  for (const piece of pieces()) {
    const text = carry + decoder.write(piece);
    const cut = text.lastIndexOf('\n');
    carry = text.slice(cut + 1);
    take(text.slice(0, cut + 1));
  }
  if (carry) take(carry);
  return touched > 0 ? rows : -1;
}

async function time(name: string, run: () => Promise<number>): Promise<void> {
  let best = Infinity;
  let heap = 0;
  let rows = 0;
  for (let i = 0; i < 3; i++) {
    global.gc?.();
    const before = process.memoryUsage().heapUsed;
    const started = performance.now();
    rows = await run();
    best = Math.min(best, performance.now() - started);
    heap = Math.max(heap, process.memoryUsage().heapUsed - before);
  }
  console.log(
    `${name.padEnd(18)} ${rows.toLocaleString('en-US')} rows  best ${Math.round(best)} ms  ${(file.length / 1048576 / (best / 1000)).toFixed(1)} MB/s  heap +${Math.round(heap / 1048576)} MB`,
  );
}

console.log(`${(file.length / 1048576).toFixed(1)} MB, ${PIECE / 1024} KiB pieces`);
await time('csv-parse 7.0.3', viaCsvParse);
await time('udsv 0.7.3', viaUdsv);
await time('papaparse 5.7.1', viaPapaparse);
