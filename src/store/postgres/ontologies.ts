import type { OntologyRecord, OntologyRepo } from '../ontologies.js';
import { decode, encode, type Db } from './db.js';

/** Query results are bytes sent as they are: stored as base64 inside the record, in seed order. */
interface Stored extends Omit<OntologyRecord, 'queries'> {
  queries: Array<[string, string]>;
}

const toRecord = (row: { record: string } | undefined): OntologyRecord | undefined => {
  if (!row) return undefined;
  const stored = decode<Stored>(row.record);
  return { ...stored, queries: new Map(stored.queries.map(([name, bytes]) => [name, Buffer.from(bytes, 'base64')])) };
};

export class PgOntologies implements OntologyRepo {
  constructor(private readonly db: Db) {}

  async insert(ontology: OntologyRecord): Promise<boolean> {
    const stored: Stored = { ...ontology, queries: [...ontology.queries].map(([name, bytes]) => [name, bytes.toString('base64')]) };
    const res = await this.db.query('INSERT INTO ontologies (rid, api_name, record) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [ontology.rid, ontology.apiName, encode(stored)]);
    return res.rowCount === 1;
  }

  /** Sets (or adds, after the others) the result a query answers with; false when there is no such ontology. */
  async setQueryResult(apiName: string, queryApiName: string, result: Buffer): Promise<boolean> {
    return this.db.transaction(async (q) => {
      const row = (await q.query<{ record: string }>('SELECT record FROM ontologies WHERE api_name = $1 FOR UPDATE', [apiName])).rows[0];
      if (!row) return false;
      const stored = decode<Stored>(row.record);
      const bytes = result.toString('base64');
      const at = stored.queries.findIndex(([name]) => name === queryApiName);
      if (at >= 0) stored.queries[at] = [queryApiName, bytes];
      else stored.queries.push([queryApiName, bytes]);
      await q.query('UPDATE ontologies SET record = $2 WHERE api_name = $1', [apiName, encode(stored)]);
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
