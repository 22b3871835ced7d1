// Ontology objects on PostgreSQL: one row per object keyed by (ontology, type, key) and ordered by seq (insertion
// order, as the memory store's Maps), and one row per many-to-many pair. An action's edits run in one
// transaction, each a single statement that either applies or tells why not; the first that cannot apply rolls
// everything back, and a dry run always rolls back, so no other instance ever sees half an action.
import type { EditOutcome, OntologyObjectRecord, OntologyObjectRepo, PropertyValues, StoredEdit } from '../ontology-objects.js';
import type { Db, Querier } from './db.js';
import { decode, encode, textSafe } from './records.js';

/** Seed batches: one statement per this many objects (parameters are arrays, so any size works; this bounds memory). */
const BATCH = 5000;

/** Thrown inside the transaction to roll it back with an answer. */
class Undo {
  constructor(readonly outcome: EditOutcome) {}
}

export class PgOntologyObjects implements OntologyObjectRepo {
  constructor(private readonly db: Db) {}

  async insertObjects(ontologyRid: string, objects: OntologyObjectRecord[]): Promise<OntologyObjectRecord[]> {
    const skipped: OntologyObjectRecord[] = [];
    for (let start = 0; start < objects.length; start += BATCH) {
      const batch = objects.slice(start, start + BATCH);
      // In input order (ORDINALITY), so seq follows it; a key taken (before, or earlier in the batch) is skipped.
      const inserted = await this.db.rows<{ t: string; k: string }>(
        `INSERT INTO ontology_objects (ontology_rid, object_type, key, record)
         SELECT $1, t, k, r FROM unnest($2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS x(t, k, r, i) ORDER BY i
         ON CONFLICT DO NOTHING RETURNING object_type AS t, key AS k`,
        [ontologyRid, batch.map((o) => o.objectType), batch.map((o) => o.key), batch.map(encode)],
      );
      // Each returned (type, key) is the first input that carried it.
      const fresh = new Set(inserted.map((r) => `${r.t}\u0000${r.k}`));
      for (const o of batch) if (!fresh.delete(`${o.objectType}\u0000${textSafe(o.key)}`)) skipped.push(o);
    }
    return skipped;
  }

  async insertPairs(ontologyRid: string, linkId: string, pairs: Array<[string, string]>): Promise<void> {
    for (let start = 0; start < pairs.length; start += BATCH) {
      const batch = pairs.slice(start, start + BATCH);
      await this.db.query(
        'INSERT INTO ontology_pairs (ontology_rid, link_id, a, b) SELECT $1, $2, a, b FROM unnest($3::text[], $4::text[]) AS x(a, b) ON CONFLICT DO NOTHING',
        [ontologyRid, linkId, batch.map((p) => p[0]), batch.map((p) => p[1])],
      );
    }
  }

  async get(ontologyRid: string, objectType: string, key: string): Promise<OntologyObjectRecord | undefined> {
    const row = await this.db.first<{ record: string }>('SELECT record FROM ontology_objects WHERE ontology_rid = $1 AND object_type = $2 AND key = $3', [
      ontologyRid,
      objectType,
      key,
    ]);
    return row ? decode<OntologyObjectRecord>(row.record) : undefined;
  }

  /** By the primary-key index (ontology_rid, object_type, key), in list() order. */
  async getMany(ontologyRid: string, objectType: string, keys: readonly string[]): Promise<OntologyObjectRecord[]> {
    if (keys.length === 0) return [];
    const rows = await this.db.rows<{ record: string }>(
      'SELECT record FROM ontology_objects WHERE ontology_rid = $1 AND object_type = $2 AND key = ANY($3::text[]) ORDER BY seq',
      [ontologyRid, objectType, [...new Set(keys)]],
    );
    return rows.map((r) => decode<OntologyObjectRecord>(r.record));
  }

  async list(ontologyRid: string, objectType: string): Promise<readonly OntologyObjectRecord[]> {
    const rows = await this.db.rows<{ record: string }>('SELECT record FROM ontology_objects WHERE ontology_rid = $1 AND object_type = $2 ORDER BY seq', [
      ontologyRid,
      objectType,
    ]);
    return rows.map((r) => decode<OntologyObjectRecord>(r.record));
  }

  async countOf(ontologyRid: string, objectType: string): Promise<number> {
    const row = await this.db.first<{ n: number }>('SELECT count(*)::int AS n FROM ontology_objects WHERE ontology_rid = $1 AND object_type = $2', [
      ontologyRid,
      objectType,
    ]);
    return row?.n ?? 0;
  }

  /** By the order index (ontology_rid, object_type, seq): only the page's rows are read and decoded. */
  async slice(ontologyRid: string, objectType: string, offset: number, limit: number): Promise<OntologyObjectRecord[]> {
    const rows = await this.db.rows<{ record: string }>(
      'SELECT record FROM ontology_objects WHERE ontology_rid = $1 AND object_type = $2 ORDER BY seq OFFSET $3 LIMIT $4',
      [ontologyRid, objectType, offset, limit],
    );
    return rows.map((r) => decode<OntologyObjectRecord>(r.record));
  }

  async withValues(ontologyRid: string, objectType: string, property: string, values: ReadonlySet<string>): Promise<OntologyObjectRecord[]> {
    if (values.size === 0) return [];
    // The type's rows (by the order index), narrowed in the server by the property's text; then compared
    // again as the memory store does (String(value)), which differs from PostgreSQL's text for some numbers.
    const rows = await this.db.rows<{ record: string }>(
      `SELECT record FROM ontology_objects WHERE ontology_rid = $1 AND object_type = $2
         AND ((record::jsonb -> 'values' ->> $3) = ANY($4::text[]) OR jsonb_typeof(record::jsonb -> 'values' -> $3) = 'number')
       ORDER BY seq`,
      [ontologyRid, objectType, property, [...values]],
    );
    return rows
      .map((r) => decode<OntologyObjectRecord>(r.record))
      .filter((o) => {
        const v = o.values[property];
        return v !== undefined && values.has(String(v));
      });
  }

  async paired(ontologyRid: string, linkId: string, side: 'a' | 'b', key: string): Promise<string[]> {
    const sql =
      side === 'a'
        ? 'SELECT b AS k FROM ontology_pairs WHERE ontology_rid = $1 AND link_id = $2 AND a = $3'
        : 'SELECT a AS k FROM ontology_pairs WHERE ontology_rid = $1 AND link_id = $2 AND b = $3';
    return (await this.db.rows<{ k: string }>(sql, [ontologyRid, linkId, key])).map((r) => r.k);
  }

  async applyEdits(ontologyRid: string, edits: StoredEdit[], options: { dryRun?: boolean } = {}): Promise<EditOutcome> {
    try {
      return await this.db.transaction(async (q) => {
        const deleted = new Map<string, number>();
        for (const [editIndex, e] of edits.entries()) {
          const problem = await applyOne(q, ontologyRid, e, deleted);
          if (problem && 'objectType' in e) throw new Undo({ ok: false, problem, objectType: e.objectType, primaryKey: e.primaryKey, editIndex });
        }
        if (options.dryRun) throw new Undo({ ok: true });
        return { ok: true } as const;
      });
    } catch (err) {
      if (err instanceof Undo) return err.outcome;
      throw err;
    }
  }

  /** Creates the object, or replaces all its values in place (it keeps its list position). */
  async putObject(ontologyRid: string, object: OntologyObjectRecord): Promise<{ created: boolean }> {
    const row = await this.db.first<{ created: boolean }>(
      `INSERT INTO ontology_objects (ontology_rid, object_type, key, record) VALUES ($1, $2, $3, $4)
       ON CONFLICT (ontology_rid, object_type, key) DO UPDATE SET record = EXCLUDED.record
       RETURNING (xmax = 0) AS created`,
      [ontologyRid, object.objectType, object.key, encode(object)],
    );
    return { created: row!.created };
  }

  /** Deletes the object and the pairs naming it on the given link sides, in one transaction. */
  async deleteObject(
    ontologyRid: string,
    objectType: string,
    key: string,
    pairSides: ReadonlyArray<{ linkId: string; side: 'a' | 'b' }>,
  ): Promise<OntologyObjectRecord | undefined> {
    return this.db.transaction(async (q) => {
      const row = (
        await q.query<{ record: string }>('DELETE FROM ontology_objects WHERE ontology_rid = $1 AND object_type = $2 AND key = $3 RETURNING record', [
          ontologyRid,
          objectType,
          key,
        ])
      ).rows[0];
      if (!row) return undefined;
      for (const { linkId, side } of pairSides) {
        const sql =
          side === 'a'
            ? 'DELETE FROM ontology_pairs WHERE ontology_rid = $1 AND link_id = $2 AND a = $3'
            : 'DELETE FROM ontology_pairs WHERE ontology_rid = $1 AND link_id = $2 AND b = $3';
        await q.query(sql, [ontologyRid, linkId, key]);
      }
      return decode<OntologyObjectRecord>(row.record);
    });
  }

  /** Every pair of the link, grouped by a in the order a was first paired, then in pairing order. */
  async pairsOf(ontologyRid: string, linkId: string): Promise<Array<[string, string]>> {
    const rows = await this.db.rows<{ a: string; b: string }>(
      'SELECT a, b FROM ontology_pairs WHERE ontology_rid = $1 AND link_id = $2 ORDER BY min(seq) OVER (PARTITION BY a), seq',
      [ontologyRid, linkId],
    );
    return rows.map((r) => [r.a, r.b]);
  }

  async count(): Promise<number> {
    return (await this.db.first<{ n: number }>('SELECT count(*)::int AS n FROM ontology_objects'))!.n;
  }
}

/**
 * One edit as one statement (a modify: a locked read, then a write); what stops it, if anything. `deleted`
 * holds the places of objects this action deleted: re-created in the same action, an object keeps its place
 * in the list, as in the memory store (which writes an action's net change).
 */
async function applyOne(q: Querier, ontologyRid: string, e: StoredEdit, deleted: Map<string, number>): Promise<'exists' | 'missing' | undefined> {
  switch (e.kind) {
    case 'create': {
      const key = String(e.primaryKey);
      const record: OntologyObjectRecord = { objectType: e.objectType, primaryKey: e.primaryKey, key, values: e.values };
      const seq = deleted.get(`${e.objectType}\u0000${key}`);
      const res =
        seq === undefined
          ? await q.query('INSERT INTO ontology_objects (ontology_rid, object_type, key, record) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [
              ontologyRid,
              e.objectType,
              key,
              encode(record),
            ])
          : await q.query('INSERT INTO ontology_objects (ontology_rid, object_type, key, record, seq) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING', [
              ontologyRid,
              e.objectType,
              key,
              encode(record),
              seq,
            ]);
      return res.rowCount === 1 ? undefined : 'exists';
    }
    case 'modify': {
      const key = String(e.primaryKey);
      const row = (
        await q.query<{ record: string }>('SELECT record FROM ontology_objects WHERE ontology_rid = $1 AND object_type = $2 AND key = $3 FOR UPDATE', [
          ontologyRid,
          e.objectType,
          key,
        ])
      ).rows[0];
      if (!row) return 'missing';
      const before = decode<OntologyObjectRecord>(row.record);
      const after: OntologyObjectRecord = { ...before, values: merge(before.values, e.set) };
      await q.query('UPDATE ontology_objects SET record = $4 WHERE ontology_rid = $1 AND object_type = $2 AND key = $3', [
        ontologyRid,
        e.objectType,
        key,
        encode(after),
      ]);
      return undefined;
    }
    case 'delete': {
      const key = String(e.primaryKey);
      const row = (
        await q.query<{ seq: number }>('DELETE FROM ontology_objects WHERE ontology_rid = $1 AND object_type = $2 AND key = $3 RETURNING seq', [
          ontologyRid,
          e.objectType,
          key,
        ])
      ).rows[0];
      if (!row) return 'missing';
      deleted.set(`${e.objectType}\u0000${key}`, row.seq);
      return undefined;
    }
    case 'addPair':
      await q.query('INSERT INTO ontology_pairs (ontology_rid, link_id, a, b) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [
        ontologyRid,
        e.linkId,
        e.a,
        e.b,
      ]);
      return undefined;
    case 'removePair':
      await q.query('DELETE FROM ontology_pairs WHERE ontology_rid = $1 AND link_id = $2 AND a = $3 AND b = $4', [ontologyRid, e.linkId, e.a, e.b]);
      return undefined;
  }
}

/** As the memory store: `set` merges in, a null (or absent) value removes the property. */
function merge(values: PropertyValues, set: PropertyValues): Record<string, unknown> {
  const out: Record<string, unknown> = { ...values };
  for (const [k, v] of Object.entries(set)) {
    if (v === null || v === undefined) delete out[k];
    else out[k] = v;
  }
  return out;
}
