// A deadlock or serialization failure that outlasts the retries (src/store/postgres/db.ts) is a 503 to retry
// (StoreContended), never a 500; an error of the work itself inside a transaction passes through unchanged.
import { afterAll, describe, expect, it } from 'vitest';
import { Db } from '../../src/store/postgres/db.js';
import { StoreContended } from '../../src/errors.js';
import { freshSchemaUrl } from '../helpers/store.js';
import { baseUrl } from './helpers.js';

// PostgreSQL raising the deadlock code on every attempt, as a victim chosen again and again would see it.
const ALWAYS_DEADLOCKED = `DO $$ BEGIN RAISE EXCEPTION 'chosen as the deadlock victim' USING ERRCODE = '40P01'; END $$`;
const ALWAYS_UNSERIALIZABLE = `DO $$ BEGIN RAISE EXCEPTION 'could not serialize' USING ERRCODE = '40001'; END $$`;

const db = new Db({ url: freshSchemaUrl(baseUrl()) });
afterAll(() => db.close());

describe('conflicts past the retries', () => {
  it('a statement answers StoreContended (503, Retry-After), not the raw error', async () => {
    for (const sql of [ALWAYS_DEADLOCKED, ALWAYS_UNSERIALIZABLE]) {
      const err = await db.query(sql).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StoreContended);
      expect((err as StoreContended).status).toBe(503);
      expect((err as StoreContended).headers['Retry-After']).toBe('1');
    }
  });

  it('a transaction too; an error of its own work is not touched', async () => {
    await expect(db.transaction((q) => q.query(ALWAYS_DEADLOCKED))).rejects.toBeInstanceOf(StoreContended);
    const own = new Error('a domain refusal');
    await expect(
      db.transaction(async () => {
        throw own;
      }),
    ).rejects.toBe(own);
  });
});
