// Storing and reading uploaded attachments and media (docs/live-ontology.md): bytes stream into the byte store
// under the file cap and the memory store's total; the record keeps name, type and size. Unused uploads older
// than an hour are swept on every upload and when the clock is moved.
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Store } from '../../../store/store.js';
import type { Clock } from '../../../clock.js';
import { BLOBS, BlobStoreFull, BlobTooLarge, byteStoreFull, type BlobStore } from '../../../blobs/index.js';
import { invalidArgument, notFound, PlatformError } from '../../../errors.js';
import { ONTOLOGY_FILES, type OntologyFile } from './part.js';
import { declaredType, typeFromBytes, typeFromName } from './media-type.js';

export const UNUSED_UPLOAD_TTL_MS = 60 * 60 * 1000;

export interface UploadOptions {
  kind: 'attachment' | 'media';
  filename: string;
  contentType: string | undefined;
  maxBytes: number;
  /** The memory store's total after this upload (limits.max_memory_blob_bytes). */
  maxHeldBytes: number;
}

export const fileTooLarge = (maxBytes: number) =>
  new PlatformError(
    'REQUEST_ENTITY_TOO_LARGE',
    'FileTooLarge',
    { maxBytes },
    `The file is larger than ${maxBytes} bytes (limits.max_ontology_file_bytes).`,
  ).because(`the upload passed limits.max_ontology_file_bytes (${maxBytes})`);

export async function uploadFile(store: Store, clock: Clock, body: AsyncIterable<Uint8Array>, options: UploadOptions): Promise<OntologyFile> {
  if (!options.filename) throw invalidArgument('InvalidArgument', { field: 'filename' }, 'filename: required').because('the upload names no file (?filename=)');
  await sweepExpired(store, clock);
  const blobs = store.part(BLOBS);
  let info;
  try {
    info = await blobs.put(body, { maxBytes: options.maxBytes, maxHeldBytes: options.maxHeldBytes });
  } catch (err) {
    if (err instanceof BlobTooLarge) throw fileTooLarge(options.maxBytes);
    // No route deletes an upload: the sweep drops one no object uses after an hour, and a reset drops them all.
    if (err instanceof BlobStoreFull) throw byteStoreFull(err.maxHeldBytes, 'reset, or raise the limit (an upload no object uses goes after an hour)');
    throw err;
  }
  const mediaType = declaredType(options.contentType) ?? typeFromName(options.filename) ?? (await sniff(blobs, info.blobId));
  const rid = options.kind === 'attachment' ? `ri.attachments.main.attachment.${randomUUID()}` : `ri.mio.main.media-item.${randomUUID()}`;
  const file: OntologyFile = {
    rid,
    kind: options.kind,
    blobId: info.blobId,
    filename: options.filename,
    mediaType,
    sizeBytes: info.size,
    createdAt: clock.now(),
    used: false,
  };
  await store.part(ONTOLOGY_FILES).insert(file);
  return file;
}

async function sniff(blobs: BlobStore, blobId: string): Promise<string> {
  const stream = await blobs.open(blobId);
  if (!stream) return 'application/octet-stream';
  for await (const chunk of stream) {
    stream.destroy();
    return typeFromBytes(chunk as Uint8Array);
  }
  return 'application/octet-stream';
}

export async function sweepExpired(store: Store, clock: Clock): Promise<number> {
  const expired = await store.part(ONTOLOGY_FILES).takeExpired(clock.now() - UNUSED_UPLOAD_TTL_MS);
  for (const f of expired) await store.part(BLOBS).delete(f.blobId);
  return expired.length;
}

export async function findFile(store: Store, rid: string, kind: 'attachment' | 'media'): Promise<OntologyFile> {
  const file = await store.part(ONTOLOGY_FILES).get(rid);
  if (!file || file.kind !== kind) {
    const name = kind === 'attachment' ? 'AttachmentNotFound' : 'MediaItemNotFound';
    throw notFound(name, kind === 'attachment' ? { attachmentRid: rid } : { mediaItemRid: rid }).because(
      `No ${kind} has the rid ${JSON.stringify(rid.slice(0, 80))}.`,
    );
  }
  return file;
}

export async function openFile(store: Store, file: OntologyFile): Promise<Readable> {
  const stream = await store.part(BLOBS).open(file.blobId);
  if (!stream) throw notFound('AttachmentNotFound', { attachmentRid: file.rid }).because(`The bytes of ${file.rid} are gone.`);
  return stream;
}

export const attachmentWire = (f: OntologyFile) => ({ rid: f.rid, filename: f.filename, sizeBytes: String(f.sizeBytes), mediaType: f.mediaType });
