import type { AccessTokenRecord, TokenRepo } from '../tokens.js';
import type { ClientRecord } from '../clients.js';
import type { UserRecord } from '../users.js';
import { principalOfClient, user } from './users.js';
import { fitsUnderCap, mintAfterRecount, NEXT_NUMBER } from './access-token-cap.js';
import { Coalescer } from './coalesce.js';
import { StoreUnavailable } from '../../errors.js';
import { capped, decode, encode, textSafe, type Db } from './db.js';

/**
 * The batched statement: one row per mint, from one JSON parameter (eight array parameters cost PostgreSQL more
 * to read than the whole insert). A row takes its number only once its principal and client have passed.
 */
const MINT_FOR_CLIENTS = `
  INSERT INTO access_tokens (token, grant_id, expires_at, record, seq)
  SELECT m.token, m.grant_id, m.expires_at, m.head || to_json(m.principal_id)::text || m.tail, m.seq
    FROM (SELECT r.*, p.id AS principal_id, nextval('access_tokens_seq_seq') AS seq
            FROM json_to_recordset($1::json)
                   AS r(client_id text, token text, grant_id text, expires_at bigint, head text, tail text, max bigint, as_of text)
            CROSS JOIN LATERAL (${principalOfClient('r.client_id')}) p
           WHERE p.active AND (r.as_of IS NULL OR EXISTS (SELECT 1 FROM clients c WHERE c.client_id = r.client_id AND c.record = r.as_of))) m
   WHERE m.max IS NULL OR m.seq - (SELECT n FROM counters WHERE name = 'access_tokens_offset') <= m.max
  RETURNING token`;

/** One client_credentials mint: a row of the batched statement (keys as its columns are named). */
interface ClientMint {
  client_id: string;
  token: string;
  grant_id: string | null;
  expires_at: number;
  head: string;
  tail: string;
  max: number | null;
  as_of: string | null;
}

export class PgTokens implements TokenRepo {
  constructor(private readonly db: Db) {}

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
   * The token for the principal that client_credentials tokens of `clientId` act as (the seeded service user
   * naming the client, else its automatic principal), stored when that principal exists and is active, the
   * cap's bound has room and (with `asOf`) the stored client still equals `asOf`. Calls made together go out as
   * one statement (coalesce.ts); each row is judged on its own, as if it had come alone.
   */
  insertAccessForClientPrincipal(clientId: string, token: Omit<AccessTokenRecord, 'principalId'>, max?: number, asOf?: ClientRecord): Promise<boolean> {
    // The record's JSON around the principal id, so that the statement only splices the id in (key order:
    // token, principalId, the rest, as every token record has them).
    const { token: value, ...rest } = token;
    const text = encode({ token: value, principalId: '', ...rest });
    const head = `{"token":${JSON.stringify(value)},"principalId":`;
    if (!text.startsWith(`${head}""`)) throw new Error('access token record: unexpected key order');
    const tail = text.slice(head.length + '""'.length);
    return this.clientMints.call({ client_id: textSafe(clientId) as string, token: value, grant_id: token.grantId ?? null, expires_at: token.expiresAt, head, tail, max: capped(max) ? max : null, as_of: asOf ? encode(asOf) : null });
  }

  private readonly clientMints = new Coalescer<ClientMint, boolean>(async (mints) => {
    const stored = await this.db.rows<{ token: string }>(MINT_FOR_CLIENTS, [JSON.stringify(mints)]);
    const done = new Set(stored.map((r) => r.token));
    return mints.map((m) => done.has(m.token));
  }, undefined, undefined, (err) => err instanceof StoreUnavailable);

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
