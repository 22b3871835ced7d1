// client_credentials' mint in one statement (PgTokens.insertAccessForClientPrincipal): the principal that the
// client's tokens act as (the seeded service user naming the client, else its automatic principal), the check
// that the stored client still equals the one authenticated against, the cap's bound, and the insert. Mints
// made at the same time share one statement (coalesce.ts); each row is judged as if it had come alone.
import type { ClientRecord } from '../clients.js';
import type { AccessTokenRecord } from '../tokens.js';
import { StoreUnavailable } from '../../errors.js';
import { fitsUnderCap } from './access-token-cap.js';
import { Coalescer } from './coalesce.js';
import type { Db } from './db.js';
import { capped, decode, encode, textSafe } from './records.js';
import type { UserRecord } from '../users.js';
import { principalOfClient } from './users.js';

/**
 * One row per mint, from one JSON parameter (eight array parameters cost PostgreSQL more to read than the
 * whole insert). A row takes its number only once its principal and client have passed. The client is read by a
 * scalar subquery, an index probe per row (an EXISTS may be planned as a hash of the whole clients table).
 * Each stored token comes back with its principal's username, which the journal names (no second lookup); an
 * automatic principal keeps its username only in its record (the column stays free for seeded names).
 */
const MINT_FOR_CLIENTS = `
  WITH m AS MATERIALIZED (
    SELECT r.*, p.id AS principal_id, p.username, p.record AS principal, nextval('access_tokens_seq_seq') AS seq
      FROM json_to_recordset($1::json)
             AS r(client_id text, token text, grant_id text, expires_at bigint, head text, tail text, max bigint, as_of text)
      CROSS JOIN LATERAL (${principalOfClient('r.client_id')}) p
     WHERE p.active AND (r.as_of IS NULL OR (SELECT c.record FROM clients c WHERE c.client_id = r.client_id) = r.as_of)),
  stored AS (
    INSERT INTO access_tokens (token, grant_id, expires_at, record, seq)
    SELECT m.token, m.grant_id, m.expires_at, m.head || to_json(m.principal_id)::text || m.tail, m.seq
      FROM m
     WHERE ${fitsUnderCap('m.max', 'm.seq')}
    RETURNING token)
  SELECT stored.token, m.username, CASE WHEN m.username IS NULL THEN m.principal END AS principal
    FROM stored JOIN m ON m.token = stored.token`;

/** One mint: a row of the statement (keys as its columns are named). */
interface Row {
  client_id: string;
  token: string;
  grant_id: string | null;
  expires_at: number;
  head: string;
  tail: string;
  max: number | null;
  as_of: string | null;
}

export class ClientMints {
  private readonly batches: Coalescer<Row, string | undefined>;

  constructor(db: Db) {
    this.batches = new Coalescer<Row, string | undefined>(
      async (rows) => {
        const stored = await db.rows<{ token: string; username: string | null; principal: string | null }>(MINT_FOR_CLIENTS, [JSON.stringify(rows)]);
        const names = new Map(stored.map((r) => [r.token, r.username ?? decode<UserRecord>(r.principal!).username]));
        return rows.map((r) => names.get(r.token));
      },
      { failsQueued: (err) => err instanceof StoreUnavailable },
    );
  }

  /** The principal's username when `token` was stored (undefined decides nothing: the caller's general path does). */
  mint(clientId: string, token: Omit<AccessTokenRecord, 'principalId'>, max: number | undefined, asOf: ClientRecord | undefined): Promise<string | undefined> {
    // The record's JSON around the principal id, so that the statement only splices the id in (key order:
    // token, principalId, the rest, as every token record has them).
    const { token: value, ...rest } = token;
    const text = encode({ token: value, principalId: '', ...rest });
    const head = `{"token":${JSON.stringify(value)},"principalId":`;
    if (!text.startsWith(`${head}""`)) throw new Error('access token record: unexpected key order');
    return this.batches.call({
      // JSON carries U+0000, PostgreSQL text does not: the one mapping every key goes through (db.ts).
      client_id: textSafe(clientId) as string,
      token: value,
      grant_id: token.grantId ?? null,
      expires_at: token.expiresAt,
      head,
      tail: text.slice(head.length + '""'.length),
      max: capped(max) ? max : null,
      as_of: asOf ? encode(asOf) : null,
    });
  }
}
