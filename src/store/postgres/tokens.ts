import type { AccessTokenRecord, TokenRepo } from '../tokens.js';
import type { ClientRecord } from '../clients.js';
import type { UserRecord } from '../users.js';
import { fitsUnderCap, mintAfterRecount, NEXT_NUMBER } from './access-token-cap.js';
import { BearerLookups } from './bearer-lookups.js';
import { ClientMints } from './client-mints.js';
import type { Db } from './db.js';
import { capped, decode, encode } from './records.js';

export class PgTokens implements TokenRepo {
  private readonly clientMints: ClientMints;
  private readonly bearers: BearerLookups;

  constructor(private readonly db: Db) {
    this.clientMints = new ClientMints(db);
    this.bearers = new BearerLookups(db);
  }

  /**
   * With `max`: when `max` tokens are stored already, stores nothing and throws StoreFull (never evicts one).
   * One statement while the bound of access-token-cap.ts has room; an exact recount when it has not.
   */
  async insertAccess(token: AccessTokenRecord, max?: number): Promise<void> {
    const values = [token.token, token.grantId ?? null, token.expiresAt, encode(token)];
    const res = await this.db.query(
      `INSERT INTO access_tokens (token, grant_id, expires_at, record, seq)
       SELECT $1::text, $2::text, $3::bigint, $4::text, s.seq FROM ${NEXT_NUMBER} WHERE ${fitsUnderCap('$5')}`,
      [...values, capped(max) ? max : null],
    );
    if (res.rowCount === 1 || !capped(max)) return;
    await mintAfterRecount(this.db, max, (q) => q.query('INSERT INTO access_tokens (token, grant_id, expires_at, record) VALUES ($1, $2, $3, $4)', values));
  }

  /**
   * The token for the principal that client_credentials tokens of `clientId` act as, stored when that principal
   * exists and is active, the cap's bound has room and (with `asOf`) the stored client still equals `asOf`.
   * Batched with the mints made at the same time (client-mints.ts).
   */
  insertAccessForClientPrincipal(
    clientId: string,
    token: Omit<AccessTokenRecord, 'principalId'>,
    max?: number,
    asOf?: ClientRecord,
  ): Promise<string | undefined> {
    return this.clientMints.mint(clientId, token, max, asOf);
  }

  async findAccess(token: string): Promise<AccessTokenRecord | undefined> {
    const row = await this.db.first<{ record: string }>('SELECT record FROM access_tokens WHERE token = $1', [token]);
    return row && decode<AccessTokenRecord>(row.record);
  }

  /** The token and the user it names, in one statement shared with the lookups made at the same time (bearer-lookups.ts). */
  findAccessWithPrincipal(token: string): Promise<{ token: AccessTokenRecord; principal: UserRecord | undefined } | undefined> {
    return this.bearers.find(token);
  }

  /** The newest `limit` access tokens still stored, newest (last issued) first. */
  async listAccess(limit: number): Promise<AccessTokenRecord[]> {
    return (await this.db.rows<{ record: string }>('SELECT record FROM access_tokens ORDER BY seq DESC LIMIT $1', [limit])).map((r) =>
      decode<AccessTokenRecord>(r.record),
    );
  }

  async revokeAccess(token: string): Promise<boolean> {
    return (await this.db.query('DELETE FROM access_tokens WHERE token = $1', [token])).rowCount === 1;
  }

  async revokeGrant(grantId: string): Promise<number> {
    return (await this.db.query('DELETE FROM access_tokens WHERE grant_id = $1', [grantId])).rowCount ?? 0;
  }

  /** The principal is inside the record's JSON: a scan, acceptable for a rare administrative call. */
  async revokePrincipal(principalId: string): Promise<number> {
    return (await this.db.query("DELETE FROM access_tokens WHERE (record::jsonb)->>'principalId' = $1", [principalId])).rowCount ?? 0;
  }

  async sweepExpired(now: number): Promise<number> {
    return (await this.db.query('DELETE FROM access_tokens WHERE expires_at <= $1', [now])).rowCount ?? 0;
  }

  async countAccess(): Promise<number> {
    return (await this.db.first<{ n: number }>('SELECT count(*)::int AS n FROM access_tokens'))!.n;
  }
}
