import type { OntologyRecord, OntologyRepo } from '../ontologies.js';
import type { QueryDef } from '../ontology-model.js';
import type { Db } from './db.js';
import { decodeRich, encodeRich } from './rich-json.js';

// The whole record (queries' bytes, typed definitions with their Maps) as tagged JSON text, in seed order.
const toRecord = (row: { record: string } | undefined): OntologyRecord | undefined => (row ? decodeRich<OntologyRecord>(row.record) : undefined);

export class PgOntologies implements OntologyRepo {
  constructor(private readonly db: Db) {}

  async insert(ontology: OntologyRecord): Promise<boolean> {
    const res = await this.db.query('INSERT INTO ontologies (rid, api_name, record) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [
      ontology.rid,
      ontology.apiName,
      encodeRich(ontology),
    ]);
    return res.rowCount === 1;
  }

  /**
   * Sets (or adds, after the others) the result a query answers with, and `definition` for a query that had
   * none; false when there is no such ontology.
   */
  async setQueryResult(apiName: string, queryApiName: string, result: Buffer, definition?: QueryDef): Promise<boolean> {
    return this.db.transaction(async (q) => {
      const row = (await q.query<{ record: string }>('SELECT record FROM ontologies WHERE api_name = $1 FOR UPDATE', [apiName])).rows[0];
      if (!row) return false;
      const ontology = decodeRich<OntologyRecord>(row.record);
      ontology.queries.set(queryApiName, result);
      if (definition && !ontology.queryTypes.has(queryApiName)) ontology.queryTypes.set(queryApiName, definition);
      await q.query('UPDATE ontologies SET record = $2 WHERE api_name = $1', [apiName, encodeRich(ontology)]);
      return true;
    });
  }

  async list(): Promise<OntologyRecord[]> {
    return (await this.db.rows<{ record: string }>('SELECT record FROM ontologies ORDER BY seq')).map((r) => toRecord(r)!);
  }

  async byApiName(apiName: string): Promise<OntologyRecord | undefined> {
    return toRecord(await this.db.first('SELECT record FROM ontologies WHERE api_name = $1', [apiName]));
  }

  async byRid(rid: string): Promise<OntologyRecord | undefined> {
    return toRecord(await this.db.first('SELECT record FROM ontologies WHERE rid = $1', [rid]));
  }

  async count(): Promise<number> {
    return (await this.db.first<{ n: number }>('SELECT count(*)::int AS n FROM ontologies'))!.n;
  }
}
