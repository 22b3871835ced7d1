import type { AccessTokenRecord, TokenRepo } from '../tokens.js';
import type { UserRecord } from '../users.js';
import { user } from './users.js';
import { StoreFull } from '../capacity.js';
import { capped, decode, encode, type Db } from './db.js';

export class PgTokens implements TokenRepo {
  constructor(private readonly db: Db) {}

  /** With `max`: when `max` tokens are stored already, stores nothing and throws StoreFull (never evicts one). */
  async insertAccess(token: AccessTokenRecord, max?: number): Promise<void> {
    const values = [token.token, token.grantId ?? null, token.expiresAt, encode(token)];
    if (!capped(max)) {
      await this.db.query('INSERT INTO access_tokens (token, grant_id, expires_at, record) VALUES ($1, $2, $3, $4)', values);
      return;
    }
    const res = await this.db.query(
      `WITH c AS (SELECT n FROM counters WHERE name = 'access_tokens' FOR UPDATE)
       INSERT INTO access_tokens (token, grant_id, expires_at, record) SELECT $1::text, $2::text, $3::bigint, $4::text FROM c WHERE c.n < $5`,
      [...values, max],
    );
    if (res.rowCount === 0) throw new StoreFull('access tokens', max);
  }

  async findAccess(token: string): Promise<AccessTokenRecord | undefined> {
    const row = await this.db.first<{ record: string }>('SELECT record FROM access_tokens WHERE token = $1', [token]);
    return row && decode<AccessTokenRecord>(row.record);
  }

  /** One statement: the token and the user it names (getCurrent and every bearer route pay one round trip). */
  async findAccessWithPrincipal(token: string): Promise<{ token: AccessTokenRecord; principal: UserRecord | undefined } | undefined> {
    const row = await this.db.first<{ record: string; id: string | null; user_record: string | null; active: boolean | null }>(
      `SELECT t.record, u.id, u.record AS user_record, u.active
         FROM access_tokens t LEFT JOIN users u ON u.id = (t.record::json ->> 'principalId')
        WHERE t.token = $1`,
      [token],
    );
    if (!row) return undefined;
    const principal = row.id === null ? undefined : user({ id: row.id, record: row.user_record!, active: row.active! });
    return { token: decode<AccessTokenRecord>(row.record), principal };
  }

  /** The newest `limit` access tokens still stored, newest (last issued) first. */
  async listAccess(limit: number): Promise<AccessTokenRecord[]> {
    return (await this.db.rows<{ record: string }>('SELECT record FROM access_tokens ORDER BY seq DESC LIMIT $1', [limit])).map((r) => decode<AccessTokenRecord>(r.record));
  }

  async revokeAccess(token: string): Promise<boolean> {
    return (await this.db.query('DELETE FROM access_tokens WHERE token = $1', [token])).rowCount === 1;
  }

  async revokeGrant(grantId: string): Promise<number> {
    return (await this.db.query('DELETE FROM access_tokens WHERE grant_id = $1', [grantId])).rowCount ?? 0;
  }

  async sweepExpired(now: number): Promise<number> {
    return (await this.db.query('DELETE FROM access_tokens WHERE expires_at <= $1', [now])).rowCount ?? 0;
  }

  async countAccess(): Promise<number> {
    return (await this.db.first<{ n: number }>('SELECT count(*)::int AS n FROM access_tokens'))!.n;
  }
}
