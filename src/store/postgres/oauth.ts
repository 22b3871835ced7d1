// Authorization-server state. Each atomic step is one statement: a code is consumed by a conditional UPDATE
// that only one caller can win, a refresh token is rotated by one statement that retires it and stores its
// successor only if it was still live, and a sweep is one set-based DELETE per table.
import type { AuthorizationCodeRecord, AuthorizeRequestRecord, ConsumeCodeResult, OAuthRepo, RefreshTokenRecord, RotateResult } from '../oauth.js';
import { StoreFull } from '../capacity.js';
import type { Db, Querier } from './db.js';
import { capped, decode, encode } from './records.js';

type Record_ = { record: string };

/**
 * The first CTEs of a statement that makes room in `table` for one more row under `max`: locks its count and
 * deletes its oldest rows (insertion order is expiry order: one fixed lifetime per kind) until fewer than
 * `max` remain. `$max` is the parameter number holding `max`.
 */
const evictOldest = (table: string, key: string, max: string) => `
  c AS (SELECT n FROM counters WHERE name = '${table}' FOR UPDATE),
  gone AS (DELETE FROM ${table} WHERE ${key} IN (SELECT ${key} FROM ${table} ORDER BY expires_at, seq LIMIT greatest((SELECT n FROM c) - ${max} + 1, 0)))`;

const RETIRE = "retired = true, retired_seq = nextval('refresh_retired_seq')";

export class PgOAuth implements OAuthRepo {
  constructor(private readonly db: Db) {}

  /** With `max`: forgets the oldest requests first, so that at most `max` are kept. */
  async saveAuthorizeRequest(request: AuthorizeRequestRecord, max?: number): Promise<void> {
    const insert =
      'INSERT INTO authorize_requests (id, expires_at, record) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET expires_at = EXCLUDED.expires_at, record = EXCLUDED.record';
    const values = [request.id, request.expiresAt, encode(request)];
    if (!capped(max)) await this.db.query(insert, values);
    else await this.db.query(`WITH ${evictOldest('authorize_requests', 'id', '$4')} ${insert}`, [...values, max]);
  }

  async findAuthorizeRequest(id: string): Promise<AuthorizeRequestRecord | undefined> {
    const row = await this.db.first<Record_>('SELECT record FROM authorize_requests WHERE id = $1', [id]);
    return row && decode(row.record);
  }

  async takeAuthorizeRequest(id: string): Promise<AuthorizeRequestRecord | undefined> {
    const row = await this.db.first<Record_>('DELETE FROM authorize_requests WHERE id = $1 RETURNING record', [id]);
    return row && decode(row.record);
  }

  /** With `max`: forgets the oldest codes first, so that at most `max` are kept. */
  async insertCode(code: AuthorizationCodeRecord, max?: number): Promise<void> {
    const insert = 'INSERT INTO codes (code, expires_at, consumed, record) VALUES ($1, $2, $3, $4)';
    const values = [code.code, code.expiresAt, code.consumed ?? false, encode(code)];
    if (!capped(max)) await this.db.query(insert, values);
    else await this.db.query(`WITH ${evictOldest('codes', 'code', '$5')} ${insert}`, [...values, max]);
  }

  async consumeCode(code: string): Promise<ConsumeCodeResult> {
    // Only one caller, on any instance, can turn `consumed` from false to true.
    const fresh = await this.db.first<Record_>('UPDATE codes SET consumed = true WHERE code = $1 AND NOT consumed RETURNING record', [code]);
    if (fresh) return { outcome: 'fresh', code: { ...decode<AuthorizationCodeRecord>(fresh.record), consumed: true } };
    const seen = await this.db.first<Record_>('SELECT record FROM codes WHERE code = $1', [code]);
    return seen ? { outcome: 'replayed', code: { ...decode<AuthorizationCodeRecord>(seen.record), consumed: true } } : { outcome: 'unknown' };
  }

  /**
   * With `max`, when `max` tokens are stored already: forgets the retired token retired first (kept only to
   * recognise a reuse); when every one is live, stores nothing and throws StoreFull.
   */
  async insertRefreshToken(token: RefreshTokenRecord, max?: number): Promise<void> {
    const values = [token.token, token.grantId, token.expiresAt, token.retired ?? false, encode(token)];
    const columns =
      "(token, grant_id, expires_at, retired, retired_seq, record) SELECT $1::text, $2::text, $3::bigint, $4::boolean, CASE WHEN $4::boolean THEN nextval('refresh_retired_seq') END, $5::text";
    if (!capped(max)) {
      await this.db.query(`INSERT INTO refresh_tokens ${columns}`, values);
      return;
    }
    const row = await this.db.first<{ stored: boolean }>(
      `WITH c AS (SELECT n FROM counters WHERE name = 'refresh_tokens' FOR UPDATE),
            victim AS (SELECT token FROM refresh_tokens WHERE retired_seq IS NOT NULL AND (SELECT n FROM c) >= $6 ORDER BY retired_seq LIMIT 1),
            gone AS (DELETE FROM refresh_tokens WHERE token IN (SELECT token FROM victim) RETURNING 1),
            stored AS (INSERT INTO refresh_tokens ${columns} WHERE (SELECT n FROM c) < $6 OR EXISTS (SELECT 1 FROM gone) RETURNING 1)
       SELECT EXISTS (SELECT 1 FROM stored) AS stored`,
      [...values, max],
    );
    if (!row?.stored) throw new StoreFull('refresh tokens', max);
  }

  async findRefreshToken(token: string): Promise<RefreshTokenRecord | undefined> {
    const row = await this.db.first<Record_ & { retired: boolean }>('SELECT record, retired FROM refresh_tokens WHERE token = $1', [token]);
    return row && { ...decode<RefreshTokenRecord>(row.record), retired: row.retired || undefined };
  }

  async rotateRefreshToken(current: string, next: RefreshTokenRecord, max?: number): Promise<RotateResult> {
    if (capped(max)) return this.db.transaction((q) => this.rotateCapped(q, current, next, max));
    const row = await this.db.first<{ rotated: boolean; grant_id: string | null }>(
      `WITH retired AS (UPDATE refresh_tokens SET ${RETIRE} WHERE token = $1 AND NOT retired RETURNING 1),
            stored AS (INSERT INTO refresh_tokens (token, grant_id, expires_at, record)
                       SELECT $2, $3, $4, $5 WHERE EXISTS (SELECT 1 FROM retired) RETURNING 1)
       SELECT EXISTS (SELECT 1 FROM stored) AS rotated, (SELECT grant_id FROM refresh_tokens WHERE token = $1) AS grant_id`,
      [current, next.token, next.grantId, next.expiresAt, encode(next)],
    );
    if (row?.rotated) return { outcome: 'rotated' };
    return row?.grant_id ? { outcome: 'reused', grantId: row.grant_id } : { outcome: 'unknown' };
  }

  /** With `max`: forgets the oldest marks first, so that at most `max` are kept (a grant marked already keeps its mark). */
  async revokeGrant(grantId: string, rememberUntil: number, max?: number): Promise<void> {
    const retire = `UPDATE refresh_tokens SET ${RETIRE} WHERE grant_id = $1 AND NOT retired`;
    if (!capped(max)) {
      await this.db.query(`WITH mark AS (INSERT INTO revoked_grants (grant_id, expires_at) VALUES ($1, $2) ON CONFLICT (grant_id) DO NOTHING) ${retire}`, [
        grantId,
        rememberUntil,
      ]);
      return;
    }
    await this.db.query(
      `WITH c AS (SELECT n FROM counters WHERE name = 'revoked_grants' FOR UPDATE),
            known AS (SELECT EXISTS (SELECT 1 FROM revoked_grants WHERE grant_id = $1) AS yes),
            gone AS (DELETE FROM revoked_grants WHERE NOT (SELECT yes FROM known) AND grant_id IN
                       (SELECT grant_id FROM revoked_grants ORDER BY expires_at, grant_id LIMIT greatest((SELECT n FROM c) - $3 + 1, 0))),
            mark AS (INSERT INTO revoked_grants (grant_id, expires_at) VALUES ($1, $2) ON CONFLICT (grant_id) DO NOTHING)
       ${retire}`,
      [grantId, rememberUntil, max],
    );
  }

  async liveGrantsOfUser(userId: string): Promise<string[]> {
    // No index by user: this runs when a user is deleted or all its tokens revoked, not per request.
    const rows = await this.db.query<{ grant_id: string }>(
      `SELECT DISTINCT grant_id FROM refresh_tokens WHERE NOT retired AND (record::json ->> 'userId') = $1`,
      [userId],
    );
    return rows.rows.map((r) => r.grant_id);
  }

  async isGrantRevoked(grantId: string): Promise<boolean> {
    return (await this.db.query('SELECT 1 FROM revoked_grants WHERE grant_id = $1', [grantId])).rowCount === 1;
  }

  async sweepExpired(now: number): Promise<number> {
    const row = await this.db.first<{ n: number }>(
      `WITH a AS (DELETE FROM authorize_requests WHERE expires_at <= $1 RETURNING 1),
            c AS (DELETE FROM codes WHERE expires_at <= $1 RETURNING 1),
            r AS (DELETE FROM refresh_tokens WHERE expires_at <= $1 RETURNING 1),
            g AS (DELETE FROM revoked_grants WHERE expires_at <= $1 RETURNING 1)
       SELECT ((SELECT count(*) FROM a) + (SELECT count(*) FROM c) + (SELECT count(*) FROM r) + (SELECT count(*) FROM g))::int AS n`,
      [now],
    );
    return row!.n;
  }

  /** Rotation under a cap: the count is locked first, so rotations and inserts on every instance take turns. */
  private async rotateCapped(q: Querier, current: string, next: RefreshTokenRecord, max: number): Promise<RotateResult> {
    await q.query("SELECT n FROM counters WHERE name = 'refresh_tokens' FOR UPDATE");
    const retired = (await q.query(`UPDATE refresh_tokens SET ${RETIRE} WHERE token = $1 AND NOT retired RETURNING grant_id`, [current])).rows[0];
    if (!retired) {
      const known = (await q.query<{ grant_id: string }>('SELECT grant_id FROM refresh_tokens WHERE token = $1', [current])).rows[0];
      return known ? { outcome: 'reused', grantId: known.grant_id } : { outcome: 'unknown' };
    }
    // Never refuses: rotation keeps the live count, so at worst `current`, just retired, is the one forgotten.
    await q.query(
      `DELETE FROM refresh_tokens WHERE token = (SELECT token FROM refresh_tokens WHERE retired_seq IS NOT NULL ORDER BY retired_seq LIMIT 1)
         AND (SELECT n FROM counters WHERE name = 'refresh_tokens') >= $1`,
      [max],
    );
    await q.query('INSERT INTO refresh_tokens (token, grant_id, expires_at, record) VALUES ($1, $2, $3, $4)', [
      next.token,
      next.grantId,
      next.expiresAt,
      encode(next),
    ]);
    return { outcome: 'rotated' };
  }

  async counts() {
    const row = await this.db.first<{ a: number; c: number; r: number; g: number }>(
      `SELECT (SELECT count(*) FROM authorize_requests)::int AS a, (SELECT count(*) FROM codes)::int AS c,
              (SELECT count(*) FROM refresh_tokens)::int AS r, (SELECT count(*) FROM revoked_grants)::int AS g`,
    );
    return { authorizeRequests: row!.a, codes: row!.c, refreshTokens: row!.r, revokedGrants: row!.g };
  }
}
