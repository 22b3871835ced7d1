// A CSV file's bytes fed to the learning (csv-learn.ts) chunk by chunk, as an upload hands them over: the header
// row first, then each chunk's whole lines where they lie; only the unfinished line at a chunk's end is kept and
// joined to the next chunk's first line. A file the learning cannot take (no header row, a quote in it, bytes
// that are not UTF-8, a line longer than LONGEST_LINE, a record it cannot walk) ends with nothing learned.
import { isUtf8 } from 'node:buffer';
import { learnRecords, newProfile, type CsvProfile } from './csv-learn.js';
import { headerRow } from './csv-header.js';

const LF = 10;
/** A longer line (or quoted run) is left to the read's scan, which hands such records to the tokenizers. */
const LONGEST_LINE = 1024 * 1024;
const EMPTY: Buffer = Buffer.alloc(0);

export class ProfileFeed {
  private profile: CsvProfile | undefined;
  private carry: Buffer = EMPTY;
  private failed = false;

  /** Learns the whole lines of `carry + chunk`; keeps the rest for the next chunk. */
  push(chunk: Buffer): void {
    if (this.failed) return;
    if (!this.profile) return this.header(chunk);
    const first = chunk.indexOf(LF);
    if (first < 0) return this.keep(Buffer.concat([this.carry, chunk]));
    const last = chunk.lastIndexOf(LF);
    let rest = chunk.subarray(0, last + 1);
    if (this.carry.length > 0) {
      // The unfinished line joined to this chunk's first line alone (one small copy), the rest read in place.
      const head = Buffer.concat([this.carry, chunk.subarray(0, first + 1)]);
      const left = this.learn(head);
      if (left === undefined) return;
      rest = chunk.subarray(first + 1, last + 1);
      // A quoted run goes on past the joined line: learned with the rest (rare; one copy more).
      if (left.length > 0) rest = Buffer.concat([left, rest]);
    }
    const left = this.learn(rest);
    if (left !== undefined) this.keep(Buffer.concat([left, chunk.subarray(last + 1)]));
  }

  /** The profile of the whole file, or undefined when it could not be learned. */
  end(): CsvProfile | undefined {
    if (this.failed || !this.profile) return undefined;
    // A last line without its line break is read as if it had one; blank text there is no record (csv-bytes.ts).
    if (this.carry.length > 0 && this.carry.toString('utf8').trim().length > 0) {
      const left = this.learn(Buffer.concat([this.carry, Buffer.from('\n')]));
      if (left === undefined || left.length > 0) return undefined;
    }
    return this.profile;
  }

  /** Learns `bytes` (whole lines); what is left of them (a record not whole yet), or undefined when it failed. */
  private learn(bytes: Buffer): Buffer | undefined {
    if (bytes.length === 0) return EMPTY;
    if (!isUtf8(bytes)) return this.fail();
    const read = learnRecords(bytes, 0, bytes.length, this.profile!);
    if (read.stop === 'unproven') return this.fail();
    return bytes.subarray(read.end);
  }

  private keep(bytes: Buffer): void {
    if (bytes.length > LONGEST_LINE) this.fail();
    // Copied: a view would keep the whole chunk it lies in.
    else this.carry = Buffer.from(bytes);
  }

  /** The header row as a passthrough read takes it (csv-header.ts), and UTF-8. */
  private header(chunk: Buffer): void {
    const bytes = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
    if (bytes.indexOf(LF) < 0) return this.keep(bytes);
    const header = headerRow(bytes);
    if (!header || !isUtf8(header.row)) return void this.fail();
    this.profile = newProfile(header.names);
    this.carry = EMPTY;
    this.push(bytes.subarray(header.bytes));
  }

  private fail(): undefined {
    this.failed = true;
    this.profile = undefined;
    this.carry = EMPTY;
    return undefined;
  }
}
