// The byte store in PostgreSQL: one row per blob and one bytea row per 1 MiB chunk, so that every instance on
// the database serves the same bytes and a restart keeps them. A blob row is written `complete = false` first
// and flipped when its last chunk is in; reads see complete blobs only, and a failed write deletes its rows.
// Chunks are inserted one statement each, outside one long transaction, so a slow upload holds no connection;
// one insert runs while the next chunk arrives, and a read fetches the next chunk while the current one is sent.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Db } from '../store/postgres/db.js';
import { randomUuid } from '../ids.js';
import { BlobRemoved, chunked, clampRange, CHUNK_BYTES, type BlobInfo, type BlobStore, type ByteRange, type PutOptions } from './blob-store.js';

interface BlobRow {
  id: string;
  size: string;
  sha256: string;
  content_type: string;
  chunks: number;
}

const FOREIGN_KEY_VIOLATION = '23503';

const infoOf = (row: BlobRow): BlobInfo => ({ blobId: row.id, size: Number(row.size), sha256: row.sha256, contentType: row.content_type });

export class PostgresBlobs implements BlobStore {
  constructor(private readonly db: Db) {}

  async put(source: AsyncIterable<Uint8Array>, options: PutOptions): Promise<BlobInfo> {
    const blobId = randomUuid();
    const contentType = options.contentType ?? 'application/octet-stream';
    const hash = createHash('sha256');
    const counted = { size: 0 };
    await this.db.query('INSERT INTO blobs (id, size, sha256, content_type, chunks, complete) VALUES ($1, 0, $2, $3, 0, false)', [blobId, '', contentType]);
    let seq = 0;
    // One insert in flight while the next chunk is read from the source: the network and the database work at
    // the same time, and at most two chunks are held.
    let inFlight: Promise<unknown> | undefined;
    try {
      for await (const chunk of chunked(source, options.maxBytes, hash, counted)) {
        await inFlight;
        inFlight = this.db.query('INSERT INTO blob_chunks (blob_id, seq, data) VALUES ($1, $2, $3)', [blobId, seq, chunk]);
        // Awaited above or below; a failure while the source is read is not an unhandled rejection meanwhile.
        inFlight.catch(() => undefined);
        seq += 1;
        if (chunk.length > 0) options.onChunk?.(chunk, false);
      }
      await inFlight;
      const sha256 = hash.digest('hex');
      const done = await this.db.query('UPDATE blobs SET size = $2, sha256 = $3, chunks = $4, complete = true WHERE id = $1', [
        blobId,
        counted.size,
        sha256,
        seq,
      ]);
      if (done.rowCount !== 1) throw new BlobRemoved();
      return { blobId, size: counted.size, sha256, contentType };
    } catch (err) {
      await inFlight?.catch(() => undefined);
      await this.delete(blobId).catch(() => undefined);
      // A chunk whose blob row a reset deleted breaks the foreign key (23503): not a fault of the database.
      if ((err as { code?: string }).code === FOREIGN_KEY_VIOLATION) throw new BlobRemoved();
      throw err;
    }
  }

  async stat(blobId: string): Promise<BlobInfo | undefined> {
    const row = await this.db.first<BlobRow>('SELECT id, size, sha256, content_type, chunks FROM blobs WHERE id = $1 AND complete', [blobId]);
    return row && infoOf(row);
  }

  async open(blobId: string, range?: ByteRange): Promise<Readable | undefined> {
    const row = await this.db.first<BlobRow>('SELECT id, size, sha256, content_type, chunks FROM blobs WHERE id = $1 AND complete', [blobId]);
    if (!row) return undefined;
    const db = this.db;
    // Every chunk but the last holds CHUNK_BYTES (blob-store.ts chunked()), so a range maps to chunk numbers and
    // to the part of its first and last chunk, which PostgreSQL cuts (substring on bytea) before sending it.
    const { start, end } = range ? clampRange(range, Number(row.size)) : { start: 0, end: Number(row.size) };
    const first = Math.floor(start / CHUNK_BYTES);
    const last = end > start ? Math.floor((end - 1) / CHUNK_BYTES) : first - 1;
    const whole = !range;
    // One chunk per query, the next fetched while the reader takes the current one: a 1 GiB read holds about
    // 2 MiB at a time.
    const fetch = (seq: number) => {
      const from = seq === first ? start - seq * CHUNK_BYTES : 0;
      const to = seq === last ? end - seq * CHUNK_BYTES : CHUNK_BYTES;
      const p = whole
        ? db.first<{ data: Buffer }>('SELECT data FROM blob_chunks WHERE blob_id = $1 AND seq = $2', [blobId, seq])
        : db.first<{ data: Buffer }>('SELECT substring(data from $3 for $4) AS data FROM blob_chunks WHERE blob_id = $1 AND seq = $2', [
            blobId,
            seq,
            from + 1,
            to - from,
          ]);
      p.catch(() => undefined);
      return p;
    };
    const count = whole ? row.chunks : last - first + 1;
    async function* chunks(): AsyncGenerator<Buffer> {
      const seqOf = (i: number) => (whole ? i : first + i);
      let next = count > 0 ? fetch(seqOf(0)) : undefined;
      for (let i = 0; i < count; i++) {
        const chunk = await next;
        next = i + 1 < count ? fetch(seqOf(i + 1)) : undefined;
        if (!chunk) throw new Error(`blob ${blobId} lost chunk ${seqOf(i)}`);
        if (chunk.data.length > 0) yield chunk.data;
      }
    }
    return Readable.from(chunks(), { objectMode: false, highWaterMark: 1 });
  }

  async delete(blobId: string): Promise<void> {
    await this.db.query('DELETE FROM blob_chunks WHERE blob_id = $1', [blobId]);
    await this.db.query('DELETE FROM blobs WHERE id = $1', [blobId]);
  }
}
