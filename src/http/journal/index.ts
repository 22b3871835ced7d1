// The request journal (docs/contracts.md §7): one hook records, a bounded ring keeps, readers filter.
export { installJournal, type Journal, type JournalListener } from './hook.js';
export { type JournalEntry, type JournalFilter } from './entry.js';
