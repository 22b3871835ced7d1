// A bounded ring buffer of journal entries: the oldest is overwritten once `capacity` is reached, so that
// the journal's memory never grows with traffic (DESIGN principle 12).
import { matches, type JournalEntry, type JournalFilter } from './entry.js';

export class JournalRing {
  private readonly slots: Array<JournalEntry | undefined>;
  /** Where the next entry goes. */
  private next = 0;
  private size = 0;

  constructor(readonly capacity: number) {
    this.slots = new Array<JournalEntry | undefined>(capacity);
  }

  push(entry: JournalEntry): void {
    if (this.capacity === 0) return;
    this.slots[this.next] = entry;
    this.next = (this.next + 1) % this.capacity;
    if (this.size < this.capacity) this.size++;
  }

  /** Newest first, filtered, at most `filter.limit` (default: all). */
  list(filter: JournalFilter = {}): JournalEntry[] {
    const limit = filter.limit ?? this.size;
    const out: JournalEntry[] = [];
    for (let i = 1; i <= this.size && out.length < limit; i++) {
      const entry = this.slots[(this.next - i + this.capacity) % this.capacity]!;
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
