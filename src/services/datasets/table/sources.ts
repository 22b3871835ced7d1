// Tables that are not files (docs/datasets.md, "Table reads"): another service whose resources are datasets
// (a stream, docs/streams.md) registers a source here; readTable asks the sources before it reads files.
import type { Store } from '../../../store/store.js';
import type { DatasetSchema } from '../model.js';
import type { Column } from './columns.js';
import type { Cell } from './columns.js';

export interface TableSource {
  schema: DatasetSchema;
  /** The rows, batched, each cell made by its column (its fromText or fromValue). */
  rows(columns: readonly Column[], rowLimit: number | undefined): AsyncIterable<Cell[][]>;
}

export type TableSourceLookup = (store: Store, datasetRid: string, branchName: string) => Promise<TableSource | undefined>;

const lookups: TableSourceLookup[] = [];

/** Called once by a service module at load; a lookup answers undefined for a dataset it does not serve. */
export function registerTableSource(lookup: TableSourceLookup): void {
  if (!lookups.includes(lookup)) lookups.push(lookup);
}

export async function tableSourceFor(store: Store, datasetRid: string, branchName: string): Promise<TableSource | undefined> {
  for (const lookup of lookups) {
    const source = await lookup(store, datasetRid, branchName);
    if (source) return source;
  }
  return undefined;
}
