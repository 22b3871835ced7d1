// Uploaded attachments and media items (docs/live-ontology.md): the record beside each file's bytes (which live
// in the byte store, src/blobs). An upload is unused until an action that names it commits; an unused one is
// forgotten (record and bytes) an hour after its upload.
import type { StorePart } from '../../../store/parts.js';

export interface OntologyFile {
  /** An attachment rid or a media item rid. */
  rid: string;
  kind: 'attachment' | 'media';
  blobId: string;
  filename: string;
  mediaType: string;
  sizeBytes: number;
  /** Milliseconds (the emulator's clock). */
  createdAt: number;
  used: boolean;
}

export interface OntologyFileRepo {
  insert(file: OntologyFile): Promise<void>;
  get(rid: string): Promise<OntologyFile | undefined>;
  /** Marks the named files as used by an object (kept for good). */
  markUsed(rids: readonly string[]): Promise<void>;
  /** Removes the unused files uploaded before `before`; returns them (their bytes are the caller's to delete). */
  takeExpired(before: number): Promise<OntologyFile[]>;
  list(): Promise<OntologyFile[]>;
}

class MemoryFiles implements OntologyFileRepo {
  private readonly files = new Map<string, OntologyFile>();
  async insert(file: OntologyFile) {
    this.files.set(file.rid, { ...file });
  }
  async get(rid: string) {
    const f = this.files.get(rid);
    return f && { ...f };
  }
  async markUsed(rids: readonly string[]) {
    for (const rid of rids) {
      const f = this.files.get(rid);
      if (f) f.used = true;
    }
  }
  async takeExpired(before: number) {
    const out: OntologyFile[] = [];
    for (const [rid, f] of this.files) {
      if (f.used || f.createdAt >= before) continue;
      out.push(f);
      this.files.delete(rid);
    }
    return out;
  }
  async list() {
    return [...this.files.values()].map((f) => ({ ...f }));
  }
  clear() {
    this.files.clear();
  }
}

interface Row {
  rid: string;
  kind: 'attachment' | 'media';
  blob_id: string;
  filename: string;
  media_type: string;
  size_bytes: string | number;
  created_at: string | number;
  used: boolean;
}
const fromRow = (r: Row): OntologyFile => ({
  rid: r.rid,
  kind: r.kind,
  blobId: r.blob_id,
  filename: r.filename,
  mediaType: r.media_type,
  sizeBytes: Number(r.size_bytes),
  createdAt: Number(r.created_at),
  used: r.used,
});

export const ONTOLOGY_FILES: StorePart<OntologyFileRepo> = {
  name: 'ontology-files',
  tables: ['ontology_files'],
  migrations: [
    {
      version: 1,
      name: 'ontology files',
      sql: `CREATE TABLE ontology_files (
        rid text PRIMARY KEY,
        kind text NOT NULL,
        blob_id text NOT NULL,
        filename text NOT NULL,
        media_type text NOT NULL,
        size_bytes bigint NOT NULL,
        created_at bigint NOT NULL,
        used boolean NOT NULL
      );
      CREATE INDEX ontology_files_unused ON ontology_files (created_at) WHERE NOT used;`,
    },
  ],
  memory: () => new MemoryFiles(),
  postgres: (db) => ({
    insert: async (f) =>
      void (await db.query(
        'INSERT INTO ontology_files (rid, kind, blob_id, filename, media_type, size_bytes, created_at, used) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
        [f.rid, f.kind, f.blobId, f.filename, f.mediaType, f.sizeBytes, f.createdAt, f.used],
      )),
    get: async (rid) => {
      const row = await db.first<Row>('SELECT * FROM ontology_files WHERE rid = $1', [rid]);
      return row && fromRow(row);
    },
    markUsed: async (rids) => void (rids.length && (await db.query('UPDATE ontology_files SET used = true WHERE rid = ANY($1)', [rids]))),
    takeExpired: async (before) => (await db.rows<Row>('DELETE FROM ontology_files WHERE NOT used AND created_at < $1 RETURNING *', [before])).map(fromRow),
    list: async () => (await db.rows<Row>('SELECT * FROM ontology_files ORDER BY created_at, rid')).map(fromRow),
  }),
};
