import type { EnrollmentRecord, EnrollmentRepo } from '../enrollment.js';
import type { Db } from './db.js';
import { decode, encode } from './records.js';

/** What the memory store starts with, until the seed sets one. */
const INITIAL: EnrollmentRecord = { rid: 'ri.enrollment..enrollment.default', name: 'Default Enrollment', createdTime: new Date(0).toISOString() };

export class PgEnrollment implements EnrollmentRepo {
  constructor(private readonly db: Db) {}

  async get(): Promise<EnrollmentRecord> {
    const row = await this.db.first<{ record: string }>('SELECT record FROM enrollment WHERE id = 1');
    return row ? decode(row.record) : INITIAL;
  }

  async set(enrollment: EnrollmentRecord): Promise<void> {
    await this.db.query('INSERT INTO enrollment (id, record) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET record = EXCLUDED.record', [encode(enrollment)]);
  }
}
