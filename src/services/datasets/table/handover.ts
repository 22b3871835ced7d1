// Answer bytes the table worker may hand to the main thread by transfer although they are a view of a larger
// buffer (docs/datasets.md, "Memory of a table read"): a buffer marked here belongs to that view's reader alone
// (parquet-wasm's IPC bytes, of which a passthrough sends the record batches), so the worker transfers it whole
// instead of copying the view, and the worker's heap is left no garbage buffer to wait for a full collection.
const given = new WeakSet<ArrayBufferLike>();

/** Marks `bytes`' whole buffer as used by nothing but `bytes` from now on. */
export function giveAway(bytes: Uint8Array): Uint8Array {
  given.add(bytes.buffer);
  return bytes;
}

/** Whether `bytes` may be sent by transferring its whole buffer: it owns all of it, or it was given away. */
export const transferable = (bytes: Uint8Array): boolean => (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength) || given.has(bytes.buffer);
