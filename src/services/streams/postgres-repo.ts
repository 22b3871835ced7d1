// The streams repository in PostgreSQL (docs/streams.md, "Offsets"). A view's bounds are one row: an append
// is locked, its end and first offsets moved (the row lock orders publishers of every instance), inserts
// the records at the offsets it reserved and drops what retention pushed out, all in one transaction, so a
// reader on any instance sees dense offsets and never a reserved offset without its record.
import type { Db } from '../../store/postgres/db.js';
import type { StreamsRepo } from './repo.js';
import type { StreamRecord, StreamType } from './model.js';

interface StreamRow {
  dataset_rid: string;
  branch: string;
  view_rid: string;
  schema: string;
  partitions_count: number;
  stream_type: StreamType;
  compressed: boolean;
}
const COLUMNS = 'dataset_rid, branch, view_rid, schema, partitions_count, stream_type, compressed';
const streamOf = (r: StreamRow): StreamRecord => ({
  datasetRid: r.dataset_rid,
  branch: r.branch,
  viewRid: r.view_rid,
  schema: JSON.parse(r.schema) as StreamRecord['schema'],
  partitionsCount: r.partitions_count,
  streamType: r.stream_type,
  compressed: r.compressed,
});
const params = (s: StreamRecord) => [s.datasetRid, s.branch, s.viewRid, JSON.stringify(s.schema), s.partitionsCount, s.streamType, s.compressed];

export class PostgresStreams implements StreamsRepo {
  constructor(private readonly db: Db) {}

  async insertStream(s: StreamRecord) {
    return this.db.transaction(async (q) => {
      const inserted = await q.query(`INSERT INTO streams (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`, params(s));
      if (inserted.rowCount !== 1) return false;
      await q.query('INSERT INTO stream_views (view_rid, first_offset, end_offset) VALUES ($1, 0, 0)', [s.viewRid]);
      return true;
    });
  }
  async stream(datasetRid: string, branch: string) {
    const row = await this.db.first<StreamRow>(`SELECT ${COLUMNS} FROM streams WHERE dataset_rid = $1 AND branch = $2`, [datasetRid, branch]);
    return row && streamOf(row);
  }
  async streamByView(viewRid: string) {
    const row = await this.db.first<StreamRow>(`SELECT ${COLUMNS} FROM streams WHERE view_rid = $1`, [viewRid]);
    return row && streamOf(row);
  }
  async streams() {
    return (await this.db.rows<StreamRow>(`SELECT ${COLUMNS} FROM streams ORDER BY seq`)).map(streamOf);
  }
  async replaceView(next: StreamRecord) {
    return this.db.transaction(async (q) => {
      const old = await q.query<{ view_rid: string }>('SELECT view_rid FROM streams WHERE dataset_rid = $1 AND branch = $2 FOR UPDATE', [
        next.datasetRid,
        next.branch,
      ]);
      const oldView = old.rows[0]?.view_rid;
      if (oldView === undefined) return false;
      await q.query(
        'UPDATE streams SET view_rid = $3, schema = $4, partitions_count = $5, stream_type = $6, compressed = $7 WHERE dataset_rid = $1 AND branch = $2',
        params(next),
      );
      // Deleting the old bounds row first makes a publisher holding it find the view gone.
      await q.query('DELETE FROM stream_views WHERE view_rid = $1', [oldView]);
      await q.query('DELETE FROM stream_records WHERE view_rid = $1', [oldView]);
      await q.query('INSERT INTO stream_views (view_rid, first_offset, end_offset) VALUES ($1, 0, 0)', [next.viewRid]);
      return true;
    });
  }
  async append(viewRid: string, values: readonly string[], maxRecords: number) {
    const n = values.length;
    return this.db.transaction(async (q) => {
      const locked = await q.query<{ first_offset: string; end_offset: string }>(
        'SELECT first_offset, end_offset FROM stream_views WHERE view_rid = $1 FOR UPDATE',
        [viewRid],
      );
      const row = locked.rows[0];
      if (!row) return undefined;
      const oldFirst = Number(row.first_offset);
      const written = Number(row.end_offset);
      const end = written + n;
      const first = Math.max(oldFirst, end - maxRecords);
      await q.query('UPDATE stream_views SET first_offset = $2, end_offset = $3 WHERE view_rid = $1', [viewRid, first, end]);
      // Only the records retention keeps are written; those it pushes out are deleted.
      await q.query(
        `INSERT INTO stream_records (view_rid, record_offset, value)
         SELECT $1, $2::bigint + t.ord - 1, t.v FROM unnest($3::text[]) WITH ORDINALITY AS t(v, ord) WHERE $2::bigint + t.ord - 1 >= $4::bigint`,
        [viewRid, written, values, first],
      );
      if (first > oldFirst) await q.query('DELETE FROM stream_records WHERE view_rid = $1 AND record_offset < $2', [viewRid, first]);
      return { first, end, written };
    });
  }
  async read(viewRid: string, from: number, limit: number) {
    // One statement: the bounds and the records of one snapshot.
    const rows = await this.db.rows<{ first_offset: string; end_offset: string; record_offset: string | null; value: string | null }>(
      `SELECT v.first_offset, v.end_offset, r.record_offset, r.value FROM stream_views v
       LEFT JOIN LATERAL (SELECT record_offset, value FROM stream_records
                          WHERE view_rid = v.view_rid AND record_offset >= GREATEST($2::bigint, v.first_offset) ORDER BY record_offset LIMIT $3) r ON true
       WHERE v.view_rid = $1`,
      [viewRid, from, limit],
    );
    const head = rows[0];
    if (!head) return undefined;
    const bounds = { first: Number(head.first_offset), end: Number(head.end_offset) };
    const records = rows.flatMap((r) => (r.record_offset === null ? [] : [{ offset: Number(r.record_offset), value: r.value! }]));
    return { bounds, records };
  }
  async bounds(viewRid: string) {
    const row = await this.db.first<{ first_offset: string; end_offset: string }>('SELECT first_offset, end_offset FROM stream_views WHERE view_rid = $1', [
      viewRid,
    ]);
    return row && { first: Number(row.first_offset), end: Number(row.end_offset) };
  }
}
