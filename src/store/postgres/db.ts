// The one door to PostgreSQL: a pool with bounded waits, query helpers shared by every repository, and the
// translation of "the database is unreachable" into StoreUnavailable (503 in the route's envelope).
import pg from 'pg';
import { AsyncLocalStorage } from 'node:async_hooks';
import { StoreContended, StoreUnavailable } from '../../errors.js';
import { parseStoreUrl } from './url.js';
import { textSafe } from './records.js';

export interface DbOptions {
  /** postgres://... ; a `schema` query parameter (ours, not libpq's) puts every table in that schema. */
  url: string;
  /** Pool size per instance. */
  maxConnections?: number;
  /** Bound on opening a connection and on waiting for a free one from the pool. */
  connectTimeoutMs?: number;
  /** Bound on one statement, on the server (statement_timeout) and in the client. */
  statementTimeoutMs?: number;
}

export interface Querier {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<pg.QueryResult<R>>;
}

/** BIGINT columns hold milliseconds and sequence numbers, far below 2^53: read them as numbers. */
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === pg.types.builtins.INT8 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/** Connection parameters, for the pool and for the dedicated LISTEN connection. */
export function clientConfig(options: DbOptions): pg.ClientConfig & { schema: string } {
  const { connectionString, schema, connectTimeoutMs } = parseStoreUrl(options.url);
  const statementTimeout = options.statementTimeoutMs ?? 5000;
  return {
    connectionString,
    schema,
    connectionTimeoutMillis: options.connectTimeoutMs ?? connectTimeoutMs ?? 2000,
    statement_timeout: statementTimeout,
    lock_timeout: statementTimeout,
    idle_in_transaction_session_timeout: statementTimeout * 2,
    // The client's own bound: a server that stops answering (paused, network gone) does not hold a request.
    query_timeout: statementTimeout + 1000,
    keepAlive: true,
    application_name: 'platform-emulator',
    options: `-c search_path=${schema}`,
    types,
  };
}

/** A transaction queries join when made from its async chain; `open` false once it ended (a timer set inside). */
interface Ambient {
  q: Querier;
  savepoints: number;
  open: boolean;
}

export class Db implements Querier {
  readonly pool: pg.Pool;
  readonly schema: string;
  /**
   * The transaction the current async chain runs in, if any: every query made from inside transaction() work
   * goes to its connection, also those a repository makes through this Db rather than the Querier it was
   * handed. So a reset can clear and reseed through the ordinary repositories in one transaction (resetWith).
   */
  private readonly ambient = new AsyncLocalStorage<Ambient>();
  /** Ambient transactions running now: tracking is switched off only when the last one ends (two resets overlap). */
  private ambientOpen = 0;

  constructor(readonly options: DbOptions) {
    const { schema, ...config } = clientConfig(options);
    this.schema = schema;
    this.pool = new pg.Pool({ ...config, max: options.maxConnections ?? 10, idleTimeoutMillis: 10_000 });
    // An idle connection that breaks (server restart) is dropped by the pool; without a listener it would crash the process.
    this.pool.on('error', () => undefined);
  }

  async query<R extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<pg.QueryResult<R>> {
    const tx = this.ambient.getStore();
    if (tx?.open) return tx.q.query<R>(sql, params);
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.pool.query<R>(prepared(sql, params));
      } catch (err) {
        if (!retryable(err, attempt)) throw isConflict(err) ? new StoreContended() : translate(err);
      }
    }
  }

  async rows<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<R[]> {
    return (await this.query<R>(sql, params)).rows;
  }

  async first<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<R | undefined> {
    return (await this.query<R>(sql, params)).rows[0];
  }

  /**
   * Runs `work` in one transaction on one connection; rolled back when it throws. A deadlock (a reset's
   * TRUNCATE against a request's locks) runs it again from the start: `work` must do nothing but queries.
   */
  async transaction<T>(work: (q: Querier) => Promise<T>, options: { ambient?: boolean } = {}): Promise<T> {
    const outer = this.ambient.getStore();
    if (outer?.open) return this.nested(outer, work);
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.transactionOnce(work, options.ambient ?? false);
      } catch (err) {
        if (!retryable(err, attempt)) throw isConflict(err) ? new StoreContended() : err;
      }
    }
  }

  private async transactionOnce<T>(work: (q: Querier) => Promise<T>, ambient: boolean): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      throw translate(err);
    }
    const q: Querier = {
      query: async <R extends pg.QueryResultRow>(sql: string, params: unknown[] = []) => {
        try {
          return await client.query<R>(prepared(sql, params));
        } catch (err) {
          throw translate(err);
        }
      },
    };
    let broken: unknown;
    // A checked-out connection has no pool listener: the server ending it between two queries (an
    // idle-in-transaction timeout, a restart) would be an uncaught 'error' and end the process.
    let lost = false;
    const onError = () => (lost = true);
    client.on('error', onError);
    // Only a transaction asked to be ambient (a reset's) is joined by the queries its work makes through the Db.
    const context: Ambient = { q, savepoints: 0, open: true };
    if (ambient) this.ambientOpen++;
    try {
      await q.query('BEGIN');
      const result = ambient ? await this.ambient.run(context, () => work(q)) : await work(q);
      await q.query('COMMIT');
      return result;
    } catch (err) {
      broken = err;
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      // A connection that failed mid-transaction is discarded rather than handed to the next request.
      context.open = false;
      // Async context tracking costs every promise of the process while enabled: on only during a reset. Not
      // while another reset's transaction still runs: disabling drops its context, and its queries would then
      // go to other connections and wait on its own row locks.
      if (ambient && --this.ambientOpen === 0) this.ambient.disable();
      client.removeListener('error', onError);
      client.release(lost || broken instanceof StoreUnavailable ? true : undefined);
    }
  }

  /** A transaction inside another: a savepoint, so that its own rollback undoes only its work. */
  private async nested<T>(outer: Ambient, work: (q: Querier) => Promise<T>): Promise<T> {
    const name = `pe_sp_${++outer.savepoints}`;
    await outer.q.query(`SAVEPOINT ${name}`);
    try {
      const result = await work(outer.q);
      await outer.q.query(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (err) {
      await outer.q.query(`ROLLBACK TO SAVEPOINT ${name}`).catch(() => undefined);
      throw err;
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/**
 * Every statement with parameters is a named prepared statement: PostgreSQL parses and plans it once per
 * connection instead of once per request (the repositories' statements are fixed texts, so the set is small).
 */
const names = new Map<string, string>();
function prepared(sql: string, params: unknown[]): pg.QueryConfig {
  if (params.length === 0) return { text: sql };
  let name = names.get(sql);
  if (name === undefined) names.set(sql, (name = `pe_${names.size}`));
  return { name, text: sql, values: params.map(textSafe) };
}

/**
 * A deadlock or serialization failure rolled the statement (or transaction) back, and running it again is safe:
 * a reset's TRUNCATE of every table meets requests holding row locks. PostgreSQL picks one side as the victim.
 */
const RETRY_CODES = new Set(['40P01', '40001']);
const MAX_ATTEMPTS = 4;
function retryable(err: unknown, attempt: number): boolean {
  return attempt < MAX_ATTEMPTS && isConflict(err);
}

/** SQLSTATE classes that mean the server is not there (08 connection, 57 operator intervention, 53 resources). */
const UNAVAILABLE_CLASSES = ['08', '57', '53'];

export function isUnavailable(err: unknown): boolean {
  if (err instanceof StoreUnavailable) return true;
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  // A SQLSTATE is five characters; a server that answered with another error is a bug of ours, not an outage.
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return UNAVAILABLE_CLASSES.includes(code.slice(0, 2));
  // Everything else the driver throws is about the connection: refused, reset, timed out, terminated.
  return true;
}

/** A deadlock or serialization failure; still there after the retries, it answers 503 (StoreContended), never a 500. */
export const isConflict = (err: unknown): boolean => err instanceof Error && RETRY_CODES.has((err as { code?: string }).code ?? '');

export function translate(err: unknown): unknown {
  return isUnavailable(err) ? new StoreUnavailable() : err;
}

// The driver-free helpers (records.ts), for the repositories that import them from here.
export { capped, decode, encode, textSafe } from './records.js';
