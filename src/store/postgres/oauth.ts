// Authorization-server state. Each atomic step is one statement: a code is consumed by a conditional UPDATE
// that only one caller can win, a refresh token is rotated by one statement that retires it and stores its
// successor only if it was still live, and a sweep is one set-based DELETE per table.
import type {
  AuthorizationCodeRecord,
  AuthorizeRequestRecord,
  ConsumeCodeResult,
  OAuthRepo,
  RefreshTokenRecord,
  RotateResult,
} from '../oauth.js';
import { decode, encode, type Db } from './db.js';

type Record_ = { record: string };

export class PgOAuth implements OAuthRepo {
  constructor(private readonly db: Db) {}

  async saveAuthorizeRequest(request: AuthorizeRequestRecord): Promise<void> {
    await this.db.query(
      'INSERT INTO authorize_requests (id, expires_at, record) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET expires_at = EXCLUDED.expires_at, record = EXCLUDED.record',
      [request.id, request.expiresAt, encode(request)],
    );
  }

  async findAuthorizeRequest(id: string): Promise<AuthorizeRequestRecord | undefined> {
    const row = await this.db.first<Record_>('SELECT record FROM authorize_requests WHERE id = $1', [id]);
    return row && decode(row.record);
  }

  async takeAuthorizeRequest(id: string): Promise<AuthorizeRequestRecord | undefined> {
    const row = await this.db.first<Record_>('DELETE FROM authorize_requests WHERE id = $1 RETURNING record', [id]);
    return row && decode(row.record);
  }

  async insertCode(code: AuthorizationCodeRecord): Promise<void> {
    await this.db.query('INSERT INTO codes (code, expires_at, consumed, record) VALUES ($1, $2, $3, $4)', [code.code, code.expiresAt, code.consumed ?? false, encode(code)]);
  }

  async consumeCode(code: string): Promise<ConsumeCodeResult> {
    // Only one caller, on any instance, can turn `consumed` from false to true.
    const fresh = await this.db.first<Record_>('UPDATE codes SET consumed = true WHERE code = $1 AND NOT consumed RETURNING record', [code]);
    if (fresh) return { outcome: 'fresh', code: { ...decode<AuthorizationCodeRecord>(fresh.record), consumed: true } };
    const seen = await this.db.first<Record_>('SELECT record FROM codes WHERE code = $1', [code]);
    return seen ? { outcome: 'replayed', code: { ...decode<AuthorizationCodeRecord>(seen.record), consumed: true } } : { outcome: 'unknown' };
  }

  async insertRefreshToken(token: RefreshTokenRecord): Promise<void> {
    await this.db.query('INSERT INTO refresh_tokens (token, grant_id, expires_at, retired, record) VALUES ($1, $2, $3, $4, $5)', [
      token.token,
      token.grantId,
      token.expiresAt,
      token.retired ?? false,
      encode(token),
    ]);
  }

  async findRefreshToken(token: string): Promise<RefreshTokenRecord | undefined> {
    const row = await this.db.first<Record_ & { retired: boolean }>('SELECT record, retired FROM refresh_tokens WHERE token = $1', [token]);
    return row && { ...decode<RefreshTokenRecord>(row.record), retired: row.retired || undefined };
  }

  async rotateRefreshToken(current: string, next: RefreshTokenRecord): Promise<RotateResult> {
    const row = await this.db.first<{ rotated: boolean; grant_id: string | null }>(
      `WITH retired AS (UPDATE refresh_tokens SET retired = true WHERE token = $1 AND NOT retired RETURNING 1),
            stored AS (INSERT INTO refresh_tokens (token, grant_id, expires_at, record)
                       SELECT $2, $3, $4, $5 WHERE EXISTS (SELECT 1 FROM retired) RETURNING 1)
       SELECT EXISTS (SELECT 1 FROM stored) AS rotated, (SELECT grant_id FROM refresh_tokens WHERE token = $1) AS grant_id`,
      [current, next.token, next.grantId, next.expiresAt, encode(next)],
    );
    if (row?.rotated) return { outcome: 'rotated' };
    return row?.grant_id ? { outcome: 'reused', grantId: row.grant_id } : { outcome: 'unknown' };
  }

  async revokeGrant(grantId: string, rememberUntil: number): Promise<void> {
    await this.db.query(
      `WITH mark AS (INSERT INTO revoked_grants (grant_id, expires_at) VALUES ($1, $2) ON CONFLICT (grant_id) DO NOTHING)
       UPDATE refresh_tokens SET retired = true WHERE grant_id = $1 AND NOT retired`,
      [grantId, rememberUntil],
    );
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

  async counts() {
    const row = await this.db.first<{ a: number; c: number; r: number; g: number }>(
      `SELECT (SELECT count(*) FROM authorize_requests)::int AS a, (SELECT count(*) FROM codes)::int AS c,
              (SELECT count(*) FROM refresh_tokens)::int AS r, (SELECT count(*) FROM revoked_grants)::int AS g`,
    );
    return { authorizeRequests: row!.a, codes: row!.c, refreshTokens: row!.r, revokedGrants: row!.g };
  }
}
