// A seed key a service owns, whole: its schema part (SeedKeySchema), seed -> records, records -> seed (the
// state export), and how an `--import` lays over the config. The seed loader, applySeed, reset and the export
// iterate the services' codecs; none of them names a service.
import type { Store } from '../store/store.js';
import type { Clock } from '../clock.js';
import type { Seed, SeedKeySchema } from './schema.js';

export interface SeedContext {
  store: Store;
  clock: Clock;
  /** The whole validated seed, for parts that refer to another service's keys. */
  seed: Seed;
  /** A line for the start summary and the log (a duplicate skipped, a reference dropped). */
  warn(message: string): void;
}

export interface ExportContext {
  store: Store;
  /** Whether secret values are written (`?secrets=include`); when not, each one left out is named by omitted(). */
  secrets: boolean;
  omitted(path: string): void;
  /** What a seed cannot hold and the export leaves out, one line each. */
  dropped(line: string): void;
  /**
   * Present when the export goes to a file (`--export-on-exit`): writes bytes into a folder beside it and
   * answers the path a seed's `from:` names them by (relative to the export file). Absent over HTTP.
   */
  writeBeside?(name: string, bytes: AsyncIterable<Uint8Array>): Promise<string>;
}

/** One count of the start summary: `count` things, named `one` or `many`, and a word on it. */
export interface SummaryCount {
  one: string;
  many: string;
  count: number;
  note?: string;
}

export interface SeedCodec<Part = unknown> extends SeedKeySchema {
  /** Writes the validated part into the store. Runs in list order, after the services listed before it. */
  apply(part: Part, context: SeedContext): Promise<void>;
  /** Reads the store back into the seed's shape; applying the answer gives the same records again. */
  export(context: ExportContext): Promise<Part>;
  /** `--import`: lays the imported part over the config's; absent: the imported part replaces it whole. */
  merge?(base: Part, imported: Part): Part;
  /**
   * A small valid part, as a user would write it. The tests generated from the service list seed every
   * service's example together, so an example may name what another service's example defines.
   */
  example: Part;
  /** What the start summary says of this key (`2 users incl. default admin`): counts of what the store holds. */
  summary?(store: Store, part: Part): Promise<SummaryCount[]>;
}

/** A codec of any part, as a list holds them (each codec checks its own part's type). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnySeedCodec = SeedCodec<any>;
