// A bounded ring buffer of journal records: the oldest is overwritten once `capacity` is reached, so that the
// journal's memory never grows with traffic (DESIGN principle 12). Records are kept raw (the epoch time, the URL
// as served, the Basic header) and made into entries only when read: the ISO time, the redaction and the
// decoding cost more than the rest of the recording, and most records are never read.
import { matches, type JournalEntry, type JournalFilter } from './entry.js';

export interface JournalRecord {
  id: number;
  timeMs: number;
  method: string;
  url: string;
  /** Only when a path alias rewrote the URL. */
  originalUrl: string | undefined;
  status: number;
  durationMs: number;
  clientId: string | undefined;
  /** An OAuth request's Basic header, read for its client id on demand (its secret part never is). */
  basic: string | undefined;
  username: string | undefined;
  errorCode: string | undefined;
  reason: string | undefined;
  /** Only when the client closed the connection before the answer was complete (client-left.ts). */
  clientLeft: true | undefined;
}

export type Materialize = (record: JournalRecord) => JournalEntry;

export class JournalRing {
  private readonly slots: Array<JournalRecord | undefined>;
  /** Where the next record goes. */
  private next = 0;
  private size = 0;

  constructor(
    readonly capacity: number,
    private readonly materialize: Materialize,
  ) {
    this.slots = new Array<JournalRecord | undefined>(capacity);
  }

  push(record: JournalRecord): void {
    if (this.capacity === 0) return;
    this.slots[this.next] = record;
    this.next = (this.next + 1) % this.capacity;
    if (this.size < this.capacity) this.size++;
  }

  /** Newest first, filtered, at most `filter.limit` (default: all). */
  list(filter: JournalFilter = {}): JournalEntry[] {
    const limit = filter.limit ?? this.size;
    const out: JournalEntry[] = [];
    for (let i = 1; i <= this.size && out.length < limit; i++) {
      const entry = this.materialize(this.slots[(this.next - i + this.capacity) % this.capacity]!);
      if (matches(entry, filter)) out.push(entry);
    }
    return out;
  }

  clear(): void {
    this.slots.fill(undefined);
    this.next = 0;
    this.size = 0;
  }

  get length(): number {
    return this.size;
  }
}
