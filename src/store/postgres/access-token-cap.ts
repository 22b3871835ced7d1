// limits.max_access_tokens on PostgreSQL, with nothing written to count a mint (migration 6).
//
// Every token takes the next number of the table's sequence, and every deleted token adds one to
// `access_tokens_offset` (a trigger on DELETE). So at any moment
//   live tokens <= (sequence number of the newest token) - offset,
// and a mint whose own number passes `number - offset <= max` cannot overshoot the cap, however many
// instances mint at once: the numbers are handed out one by one, and a deletion lowers the bound only once it
// has committed. Numbers taken by mints that were refused or rolled back make the bound too high, never too low;
// so a mint that fails it is decided here, exactly: a recount under a table lock that waits for every insert
// and delete in flight, which also re-bases the offset. A recount that finds the table full is remembered
// (the offset it found), so refusals at the cap cost one read each until a token is deleted.
import { StoreFull } from '../capacity.js';
import type { Db, Querier } from './db.js';

/** The FROM item that takes the new token's number, as `s.seq`. */
export const NEXT_NUMBER = "(SELECT nextval('access_tokens_seq_seq') AS seq) s";

/** The condition that the new token numbered `seq` fits under the cap `max` (SQL expressions; a null cap: none). */
export const fitsUnderCap = (max: string, seq = 's.seq') =>
  `(${max}::bigint IS NULL OR ${seq} - (SELECT n FROM counters WHERE name = 'access_tokens_offset') <= ${max}::bigint)`;

/**
 * After a mint failed the bound: throws StoreFull when `max` tokens are live, else runs `insert` while the
 * count is exact and no other mint can run (it stores the token under the number after the recount's).
 */
export async function mintAfterRecount(db: Db, max: number, insert: (q: Querier) => Promise<unknown>): Promise<void> {
  const known = await db.first<{ full: boolean }>(
    `SELECT (SELECT n FROM counters WHERE name = 'access_tokens_offset') = (SELECT n FROM counters WHERE name = 'access_tokens_full_offset')
        AND (SELECT n FROM counters WHERE name = 'access_tokens_full_count') >= $1 AS full`,
    [max],
  );
  if (known?.full) throw new StoreFull('access tokens', max);
  const full = await db.transaction(async (q) => {
    await q.query('LOCK TABLE access_tokens IN SHARE ROW EXCLUSIVE MODE');
    const { live, last } = (
      await q.query<{ live: number; last: number }>(
        `SELECT count(*)::bigint AS live, (SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END FROM access_tokens_seq_seq) AS last FROM access_tokens`,
      )
    ).rows[0]!;
    const offset = last - live;
    if (live >= max) {
      await q.query(
        `UPDATE counters SET n = CASE name WHEN 'access_tokens_full_count' THEN $2::bigint ELSE $1::bigint END
          WHERE name IN ('access_tokens_offset', 'access_tokens_full_offset', 'access_tokens_full_count')`,
        [offset, live],
      );
      return true;
    }
    await q.query("UPDATE counters SET n = $1 WHERE name = 'access_tokens_offset'", [offset]);
    await insert(q);
    return false;
  });
  // Thrown after the commit, so that the recount is kept.
  if (full) throw new StoreFull('access tokens', max);
}
