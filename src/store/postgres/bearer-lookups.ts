// Bearer authentication's lookup (PgTokens.findAccessWithPrincipal): the token and the user it names, in one
// statement shared by the lookups made at the same time (coalesce.ts). Every API request pays one; under load
// a statement's fixed cost (a round trip on each side, a plan) outweighs a row's several times over.
import type { AccessTokenRecord } from '../tokens.js';
import type { UserRecord } from '../users.js';
import { StoreUnavailable } from '../../errors.js';
import { Coalescer } from './coalesce.js';
import type { Db } from './db.js';
import { decode, textSafe } from './records.js';
import { user } from './users.js';

/**
 * The tokens come as one JSON array (one parameter is cheaper for PostgreSQL to read than a text[]). The lateral
 * subqueries (kept apart by OFFSET 0) make every lookup an index probe, whatever a generic plan guesses of the
 * array's length: a join the planner may turn into a hash join would scan the whole token table.
 */
const FIND_WITH_PRINCIPAL = `
  SELECT q.token, t.record, u.id, u.record AS user_record, u.active
    FROM json_array_elements_text($1::json) AS q(token)
    CROSS JOIN LATERAL (SELECT record FROM access_tokens WHERE token = q.token OFFSET 0) t
    LEFT JOIN LATERAL (SELECT id, record, active FROM users WHERE id = (t.record::json ->> 'principalId') OFFSET 0) u ON true`;

const USERS_KEPT = 10_000;

type Found = { token: AccessTokenRecord; principal: UserRecord | undefined };
type Row = { token: string; record: string; id: string | null; user_record: string | null; active: boolean | null };

export class BearerLookups {
  private readonly batches: Coalescer<string, Found | undefined>;

  constructor(db: Db) {
    this.batches = new Coalescer<string, Found | undefined>(
      async (tokens) => {
        const rows = new Map((await db.rows<Row>(FIND_WITH_PRINCIPAL, [JSON.stringify(tokens)])).map((r) => [r.token, r]));
        return tokens.map((t) => {
          const row = rows.get(t);
          if (!row) return undefined;
          // Each caller gets its own token object (a batch may ask for one token twice); a user is shared (below).
          return {
            token: decode<AccessTokenRecord>(row.record),
            principal: row.id === null ? undefined : this.principal(row.id, row.user_record!, row.active!),
          };
        });
      },
      { failsQueued: (err) => err instanceof StoreUnavailable },
    );
  }

  /**
   * Users read before, by id, with the row text they were decoded from. A user's record is never changed in place
   * (both stores replace it), so a row whose text and `active` are unchanged gives back the same object: no decode,
   * and what is kept per record (getCurrent's answer text, src/services/admin/shapes.ts) is found again. A changed
   * row (this instance's write or another's) decodes afresh. Bounded: emptied when full.
   */
  private readonly users = new Map<string, { text: string; active: boolean; record: UserRecord }>();

  private principal(id: string, text: string, active: boolean): UserRecord {
    const kept = this.users.get(id);
    if (kept !== undefined && kept.text === text && kept.active === active) return kept.record;
    const record = user({ id, record: text, active })!;
    if (this.users.size >= USERS_KEPT) this.users.clear();
    this.users.set(id, { text, active, record });
    return record;
  }

  /** `principal` is undefined when the user no longer exists. */
  find(token: string): Promise<Found | undefined> {
    // JSON carries U+0000, PostgreSQL text does not: the one mapping every key goes through (db.ts).
    return this.batches.call(textSafe(token) as string);
  }
}
