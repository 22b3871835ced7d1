// An upload becomes used (kept for good) when an action that writes it to an object commits.
import type { Store, StoredEdit } from '../../../store/store.js';
import { ONTOLOGY_FILES } from './part.js';
import { fileRidsIn } from './values.js';

export async function markFilesUsed(store: Store, edits: readonly StoredEdit[]): Promise<void> {
  const values = edits.flatMap((e) => (e.kind === 'create' ? Object.values(e.values) : e.kind === 'modify' ? Object.values(e.set) : []));
  const rids = fileRidsIn(values);
  if (rids.length) await store.part(ONTOLOGY_FILES).markUsed(rids);
}
