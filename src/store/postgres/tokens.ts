import type { AccessTokenRecord, TokenRepo } from '../tokens.js';
import { decode, encode, type Db } from './db.js';

export class PgTokens implements TokenRepo {
  constructor(private readonly db: Db) {}

  async insertAccess(token: AccessTokenRecord): Promise<void> {
    await this.db.query('INSERT INTO access_tokens (token, grant_id, expires_at, record) VALUES ($1, $2, $3, $4)', [
      token.token,
      token.grantId ?? null,
      token.expiresAt,
      encode(token),
    ]);
  }

  async findAccess(token: string): Promise<AccessTokenRecord | undefined> {
    const row = await this.db.first<{ record: string }>('SELECT record FROM access_tokens WHERE token = $1', [token]);
    return row && decode<AccessTokenRecord>(row.record);
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
