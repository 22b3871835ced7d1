import type { UserRecord, UserRepo } from '../users.js';
import { StoreFull } from '../capacity.js';
import type { Db } from './db.js';
import { decode, encode } from './records.js';

type Row = { id: string; record: string; active: boolean };

/** The principal standing for a client (SQL `clientId`): the first seeded service user naming it, else its automatic principal. */
export const principalOfClient = (clientId: string) => `(SELECT id, username, record, active FROM users WHERE service_for = ${clientId} ORDER BY seq LIMIT 1)
  UNION ALL (SELECT id, username, record, active FROM users WHERE principal_for = ${clientId}) LIMIT 1`;
const PRINCIPAL_OF_CLIENT = principalOfClient('$1');

/** `id` and `active` come from their columns (a replaced user keeps its id; `active` changes on its own). */
export const user = (row: Row | undefined): UserRecord | undefined => row && { ...decode<UserRecord>(row.record), id: row.id, active: row.active };

export class PgUsers implements UserRepo {
  constructor(private readonly db: Db) {}

  async insert(u: UserRecord): Promise<boolean> {
    const serviceFor = u.principalType === 'service' ? (u.oauthClientId ?? null) : null;
    const res = await this.db.query('INSERT INTO users (id, username, service_for, active, record) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING', [
      u.id,
      u.username,
      serviceFor,
      u.active,
      encode(u),
    ]);
    return res.rowCount === 1;
  }

  /**
   * Creates or replaces the seeded user of this username (control routes); true when created. A replaced user
   * keeps its id, so that the tokens issued to it stay its own, and its place in seed order.
   */
  async upsert(u: UserRecord): Promise<boolean> {
    const serviceFor = u.principalType === 'service' ? (u.oauthClientId ?? null) : null;
    const row = await this.db.first<{ created: boolean }>(
      `INSERT INTO users (id, username, service_for, active, record) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (username) DO UPDATE SET service_for = EXCLUDED.service_for, active = EXCLUDED.active, record = EXCLUDED.record
       RETURNING (xmax = 0) AS created`,
      [u.id, u.username, serviceFor, u.active, encode(u)],
    );
    return row!.created;
  }

  /** Seeded users in seed order (not the automatic service principals). */
  async list(): Promise<UserRecord[]> {
    return (await this.db.rows<Row>('SELECT id, record, active FROM users WHERE username IS NOT NULL ORDER BY seq')).map((r) => user(r)!);
  }

  async listPage(offset: number, limit: number, withInactive: boolean): Promise<UserRecord[]> {
    const rows = await this.db.rows<Row>(
      `SELECT id, record, active FROM users WHERE username IS NOT NULL${withInactive ? '' : ' AND active'} ORDER BY seq OFFSET $1 LIMIT $2`,
      [offset, limit + 1],
    );
    return rows.map((r) => user(r)!);
  }

  async byId(id: string): Promise<UserRecord | undefined> {
    return user(await this.db.first<Row>('SELECT id, record, active FROM users WHERE id = $1', [id]));
  }

  async byUsername(username: string): Promise<UserRecord | undefined> {
    return user(await this.db.first<Row>('SELECT id, record, active FROM users WHERE username = $1', [username]));
  }

  async listActiveHumans(): Promise<UserRecord[]> {
    const rows = await this.db.rows<Row>('SELECT id, record, active FROM users WHERE username IS NOT NULL AND active ORDER BY seq');
    return rows.map((r) => user(r)!).filter((u) => u.principalType === 'human');
  }

  async setActive(username: string, active: boolean): Promise<UserRecord | undefined> {
    return user(await this.db.first<Row>('UPDATE users SET active = $2 WHERE username = $1 RETURNING id, record, active', [username, active]));
  }

  /**
   * With `max` (open-mode clients): when `max` principals made under a cap exist, a new one is not made and
   * StoreFull is thrown; a seeded service user or an existing principal is still returned.
   */
  async servicePrincipalFor(clientId: string, create: () => UserRecord, max?: number): Promise<UserRecord> {
    const found = await this.principal(clientId);
    if (found) return found;
    const made = create();
    const insert = 'INSERT INTO users (id, principal_for, active, capped, record) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING';
    const values = [made.id, clientId, made.active, max !== undefined, encode(made)];
    if (max === undefined) {
      // Two instances may create one at once: the first insert wins and both answer with it.
      await this.db.query(insert, values);
    } else {
      // Counted and made under one lock, so that instances making principals at once cannot overshoot.
      await this.db.transaction(async (q) => {
        await q.query("SELECT pg_advisory_xact_lock(hashtext('platform-emulator:capped-principals'))");
        if ((await q.query('SELECT 1 FROM users WHERE principal_for = $1', [clientId])).rowCount) return;
        const n = (await q.query<{ n: number }>('SELECT count(*)::int AS n FROM users WHERE capped')).rows[0]!.n;
        if (n >= max) throw new StoreFull('service principals', max);
        await q.query(insert, values);
      });
    }
    return (await this.principal(clientId))!;
  }

  async count(): Promise<number> {
    return (await this.db.first<{ n: number }>('SELECT count(*)::int AS n FROM users WHERE username IS NOT NULL'))!.n;
  }

  /** The seeded service user standing for the client (the first inserted), else its automatic principal. */
  private async principal(clientId: string): Promise<UserRecord | undefined> {
    return user(await this.db.first<Row>(PRINCIPAL_OF_CLIENT, [clientId]));
  }
}
