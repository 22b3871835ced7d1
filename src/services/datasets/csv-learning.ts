// A large CSV upload is learned while it arrives (docs/datasets.md, "CSV files learned at upload"; the work is in
// table/csv-learner.ts): the byte store tells each chunk it stores, and a table worker learns them in order. This
// side is loaded at start-up and holds no table module: the learner is loaded at the first upload that reaches
// LEARN_FROM_BYTES. Smaller files are not learned: a read's scan of them is short, and starting a worker for them
// would cost more than it saves.
import type { UploadLearner } from './table/csv-learner.js';

/** The same rule as the table reads' (table/read-table.ts tabularFormat). */
const CSV = /\.csv$/i;
const LEARN_FROM_BYTES = 8 * 1024 * 1024;

export interface WatchedUpload {
  /** For the byte store's PutOptions.onChunk. */
  onChunk(chunk: Buffer, kept: boolean): void;
  /** The bytes are stored as `blobId`: what is learned is kept for it. */
  stored(blobId: string): void;
  /** The upload failed or was refused: nothing is learned. */
  failed(): void;
}

/** Watches an upload to `path` when it is a CSV file; `declared` is the request's content length (NaN: unknown). */
export function watchUpload(path: string, declared: number): WatchedUpload | undefined {
  if (!CSV.test(path)) return undefined;
  let learner: UploadLearner | undefined;
  let loading = false;
  let held: Array<[Buffer, boolean]> = [];
  let seen = 0;
  /** How the upload ended, while the learner is still loading: its blob, or null when it failed. */
  let outcome: string | null | undefined;
  const end = (result: string | null) => {
    if (outcome !== undefined) return;
    outcome = result;
    held = [];
    if (learner && result !== null) learner.finish(result);
    else learner?.stop();
  };
  return {
    // Never lets a fault of the learning reach the upload: the learning stops instead.
    onChunk: (chunk, kept) => {
      try {
        take(chunk, kept);
      } catch {
        end(null);
      }
    },
    stored: (blobId) => end(blobId),
    failed: () => end(null),
  };

  function take(chunk: Buffer, kept: boolean): void {
    if (outcome !== undefined) return;
    if (learner) return learner.push(chunk, kept);
    held.push([chunk, kept]);
    seen += chunk.length;
    if (loading || (seen < LEARN_FROM_BYTES && !(declared >= LEARN_FROM_BYTES))) return;
    loading = true;
    import('./table/csv-learner.js').then(
      (m) => {
        if (outcome === null) return;
        const ended = outcome;
        try {
          learner = new m.UploadLearner();
          for (const [before, wasKept] of held) learner.push(before, wasKept);
          held = [];
          if (ended !== undefined) learner.finish(ended);
        } catch {
          // As a fault in onChunk: the learning stops, the upload goes on.
          learner?.stop();
          learner = undefined;
          held = [];
          outcome = null;
        }
      },
      // No learner here: the reads scan the file as before.
      () => (held = []),
    );
  }
}
