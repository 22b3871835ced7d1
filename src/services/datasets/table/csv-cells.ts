// The records of a CSV stretch read into column slots for an ARROW read (docs/datasets.md, "CSV -> ARROW from
// the bytes"), in one pass over the bytes: each cell is found and, for a read column, its value read by its
// type's plain reader (csv-values.ts) as it goes; a cell no plain reader takes is decoded and given to the
// column's fromText. Only records of a simple, certain form are taken: one cell per header column, cells split
// by commas, each unquoted (no quote or carriage return in it) or quoted (quotes doubled inside, the closing
// quote followed by its delimiter), every record ended as the header row is (LF or CRLF), every read value
// accepted. The first other record stops the pass: the caller hands it and the rest to the tokenizers, which
// read it or name the file, line and column that fail.
import type { Buffer } from 'node:buffer';
import * as columns from './csv-columns.js';
import type { ScanResult } from './csv-scan.js';
import * as values from './csv-values.js';

// Local copies of what is used per cell: where the sources run through a CommonJS or test transform (vitest,
// tsx on a .ts file outside a module package), each use of an imported name is a property read or a getter call,
// which cost more than reading the cell.
const { Kind, textOf } = columns;
const { VALUE, plainBoolean, plainDate, plainDouble, plainInteger, plainTimestamp } = values;
const { STRING, DOUBLE, FLOAT, INTEGER, DATE, BOOLEAN, LONG, TIMESTAMP, OTHER } = Kind;
type Slot = columns.Slot;
type Kind = columns.Kind;

const COMMA = 44;
const LF = 10;
const CR = 13;
const QUOTE = 34;
/** Bytes that end an unquoted cell, or that an unquoted cell may not hold. */
const STOPS = new Uint8Array(256);
for (const c of [COMMA, LF, CR, QUOTE]) STOPS[c] = 1;
const isEnd = (c: number | undefined) => c === COMMA || c === LF || c === CR;

/** The file's layout, from its header row: cells per record, the slot each position fills (or none), the line end. */
export interface CellLayout {
  width: number;
  slotOf: (Slot | undefined)[];
  crlf: boolean;
}

/** The plain reader of a kind at `at`: the index past its value (left in VALUE[0]), or -1. */
function plain(kind: Kind, b: Uint8Array, at: number): number {
  switch (kind) {
    case DOUBLE:
    case FLOAT:
      return plainDouble(b, at);
    case INTEGER:
    case LONG:
      return plainInteger(b, at);
    case TIMESTAMP:
      return plainTimestamp(b, at);
    case DATE:
      return plainDate(b, at);
    case BOOLEAN:
      return plainBoolean(b, at);
    default:
      return -1;
  }
}

/**
 * Record r's cell `b[s..e]` (quotes doubled inside when `doubled`) into its slot; false when the column
 * refuses it. `end` is what the plain reader answered for it (-2: not asked).
 */
function put(slot: Slot, r: number, b: Buffer, s: number, e: number, doubled: boolean, end: number): boolean {
  const kind = slot.kind;
  if (kind === STRING) {
    slot.starts[r] = doubled ? -1 - s : s;
    slot.ends[r] = e;
    return true;
  }
  if (kind !== OTHER) {
    if (s === e) {
      slot.null(r);
      return true;
    }
    if (end === e && !doubled) {
      const value = VALUE[0]!;
      if (kind === LONG) {
        slot.long(r, value);
        return true;
      }
      if (kind === TIMESTAMP) {
        slot.micros(r, value);
        return true;
      }
      if (value >= slot.min && value <= slot.max) {
        slot.numbers[r] = value;
        return true;
      }
    }
  }
  try {
    slot.put(r, slot.column.fromText(textOf(b, s, e, doubled)));
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads the records of `b[from..limit]` (`b[limit - 1]` is a line feed) into the slots, up to the first record
 * not of the certain form (stop 'unproven') or a quoted cell whose closing quote is not before `limit` (stop
 * 'more': the record is not whole yet). Empty lines are no records (the tokenizers skip them too).
 */
export function readCells(b: Buffer, from: number, limit: number, layout: CellLayout): ScanResult {
  const { width, slotOf, crlf } = layout;
  const last = width - 1;
  // Room for records of 32 bytes or more at first, grown when they are shorter (up to one byte per cell).
  let room = Math.ceil((limit - from) / 32) + 16;
  for (const slot of slotOf) {
    slot?.begin();
    slot?.reserve(room);
  }
  let r = 0;
  let start = from;
  while (start < limit) {
    let at = start;
    if (r === room) {
      room *= 2;
      for (const slot of slotOf) slot?.reserve(room);
    }
    const first = b[at];
    if (first === LF && !crlf) {
      start = at + 1;
      continue;
    }
    if (first === CR && crlf && b[at + 1] === LF) {
      start = at + 2;
      continue;
    }
    for (let i = 0; i <= last; i++) {
      const slot = slotOf[i];
      let end: number;
      if (b[at] === QUOTE) {
        let close = at + 1;
        let doubled = false;
        for (;;) {
          close = b.indexOf(QUOTE, close);
          if (close < 0 || close >= limit) return { records: r, end: start, stop: 'more' };
          if (b[close + 1] !== QUOTE) break;
          doubled = true;
          close += 2;
        }
        if (slot && !put(slot, r, b, at + 1, close, doubled, doubled || slot.kind === STRING ? -2 : plain(slot.kind, b, at + 1))) {
          return { records: r, end: start, stop: 'unproven' };
        }
        end = close + 1;
      } else {
        const kind = slot ? slot.kind : OTHER;
        // A plain reader finds the cell's end as it reads; else (or if the cell goes on) the stop bytes do.
        end = kind !== STRING && kind !== OTHER ? plain(kind, b, at) : -1;
        if (end >= 0 && isEnd(b[end])) {
          // The common case, written here rather than through put (a call per cell).
          const value = VALUE[0]!;
          if (kind === LONG) slot!.long(r, value);
          else if (kind === TIMESTAMP) slot!.micros(r, value);
          else if (value >= slot!.min && value <= slot!.max) slot!.numbers[r] = value;
          else if (!put(slot!, r, b, at, end, false, -2)) return { records: r, end: start, stop: 'unproven' };
        } else {
          end = at;
          while (STOPS[b[end]!] === 0) end++;
          if (b[end] === QUOTE) return { records: r, end: start, stop: 'unproven' };
          if (kind === STRING) {
            slot!.starts[r] = at;
            slot!.ends[r] = end;
          } else if (slot && !put(slot, r, b, at, end, false, -2)) return { records: r, end: start, stop: 'unproven' };
        }
      }
      const delimiter = b[end];
      if (i < last) {
        if (delimiter !== COMMA) return { records: r, end: start, stop: 'unproven' };
      } else if (crlf) {
        if (delimiter !== CR || b[end + 1] !== LF) return { records: r, end: start, stop: 'unproven' };
        end += 1;
      } else if (delimiter !== LF) return { records: r, end: start, stop: 'unproven' };
      at = end + 1;
    }
    r++;
    start = at;
  }
  return { records: r, end: start, stop: 'more' };
}
