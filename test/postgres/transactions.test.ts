// Two ways a transaction of src/store/postgres/db.ts could go wrong that the reset-race stress test found:
// the server ending a connection between two of a transaction's queries (it raised an uncaught 'error', which
// would end the process), and two ambient transactions (two resets) overlapping (the first to end switched
// the context tracking off under the second, whose queries then waited on its own row locks).
import { afterAll, describe, expect, it } from 'vitest';
import { Db } from '../../src/store/postgres/db.js';
import { freshSchemaUrl } from '../helpers/store.js';
import { baseUrl } from './helpers.js';

const url = freshSchemaUrl(baseUrl());
const dbs: Db[] = [];
afterAll(() => Promise.all(dbs.map((db) => db.close())));
const open = (statementTimeoutMs?: number) => {
  const db = new Db({ url, ...(statementTimeoutMs ? { statementTimeoutMs } : {}) });
  dbs.push(db);
  return db;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a transaction whose connection the server ends between two queries', () => {
  it('fails that transaction, and the process goes on (no uncaught error), and the next one works', async () => {
    // idle_in_transaction_session_timeout is twice the statement timeout: 300 ms here.
    const db = open(150);
    const failed = await db
      .transaction(async (q) => {
        await q.query('SELECT 1');
        await sleep(900); // idle in the transaction past the server's timeout: it ends the connection
        return q.query('SELECT 2');
      })
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    expect(failed).toBeInstanceOf(Error);
    // The broken connection was not handed back to the pool: the next transaction gets a working one.
    expect((await db.transaction((q) => q.query<{ n: number }>('SELECT 3 AS n'))).rows[0]?.n).toBe(3);
  });
});

describe('two ambient transactions at once', () => {
  it("each one's queries made through the Db join its own transaction, also after the other ended", async () => {
    const db = open();
    await db.query(`CREATE SCHEMA IF NOT EXISTS "${db.schema}"`);
    await db.query('CREATE TABLE overlap (k text PRIMARY KEY)');
    await db.query("INSERT INTO overlap VALUES ('old')");
    const first = db.transaction(
      async () => {
        await db.query("DELETE FROM overlap WHERE k = 'old'");
        return 'first';
      },
      { ambient: true },
    );
    const outsider = open();
    const second = db.transaction(
      async () => {
        await sleep(200); // the first ends meanwhile
        // Through the Db, not the Querier: it must still run on this transaction's connection, so that another
        // connection does not see the row before the transaction commits.
        await db.query("INSERT INTO overlap VALUES ('second')");
        const outside = await outsider.rows<{ k: string }>('SELECT k FROM overlap');
        const inside = await db.rows<{ k: string }>('SELECT k FROM overlap');
        return { outside: outside.map((r) => r.k), inside: inside.map((r) => r.k) };
      },
      { ambient: true },
    );
    expect(await first).toBe('first');
    expect(await second).toEqual({ outside: [], inside: ['second'] });
    // A query outside both joins neither.
    expect((await db.rows<{ k: string }>('SELECT k FROM overlap')).map((r) => r.k)).toEqual(['second']);
  });
});
