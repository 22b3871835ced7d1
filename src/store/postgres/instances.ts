// The instances' lease rows (core migration 7) and the one rule every lease lapses by: an instance is gone once
// its row has not been renewed for the lapse time, by the database's clock, the one clock every instance shares.
import type { InstanceRepo } from '../instances.js';
import type { Db } from './db.js';

/** The database's time in ms, as lease rows are written and judged. */
export const DB_NOW_MS = '(extract(epoch from clock_timestamp()) * 1000)::bigint';

/**
 * SQL that holds when the instance named by `holder` (an SQL expression) has not renewed its lease for `lapseMs`
 * (an SQL parameter, in ms), or has no row at all: what jobs and dataset transactions are taken back by.
 */
export const leaseLapsed = (holder: string, lapseMs: string): string =>
  `NOT EXISTS (SELECT 1 FROM instances i WHERE i.instance_id = ${holder} AND i.seen_at > ${DB_NOW_MS} - ${lapseMs}::bigint)`;

export class PgInstances implements InstanceRepo {
  constructor(private readonly db: Db) {}

  async renew(instanceId: string): Promise<void> {
    await this.db.query(
      `INSERT INTO instances (instance_id, seen_at) VALUES ($1, ${DB_NOW_MS})
       ON CONFLICT (instance_id) DO UPDATE SET seen_at = EXCLUDED.seen_at`,
      [instanceId],
    );
  }
}
