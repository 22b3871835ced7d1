// The directory on PostgreSQL: the same answers as memory.ts. Records are JSON text; the columns are what the
// lookups and orders need. Edges carry a sequence so that members list in the order they were added.
import type { Db } from '../../../store/postgres/db.js';
import { decode, encode } from '../../../store/postgres/records.js';
import type { Migration } from '../../../store/postgres/migrations.js';
import type { DirectoryRepo, GroupRecord, MarkingCategoryRecord, MarkingRecord, MemberRecord, PrincipalKind } from './records.js';

export const DIRECTORY_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'directory',
    sql: `
      CREATE TABLE directory_groups (id text PRIMARY KEY, name text NOT NULL, record text NOT NULL);
      CREATE INDEX directory_groups_name ON directory_groups (name, id);
      CREATE TABLE directory_group_members (
        group_id text NOT NULL, principal_id text NOT NULL, principal_type text NOT NULL,
        seq bigserial, PRIMARY KEY (group_id, principal_id));
      CREATE INDEX directory_group_members_principal ON directory_group_members (principal_id);
      CREATE TABLE directory_marking_categories (id text PRIMARY KEY, record text NOT NULL);
      CREATE TABLE directory_markings (id text PRIMARY KEY, record text NOT NULL);
      CREATE TABLE directory_marking_members (
        marking_id text NOT NULL, principal_id text NOT NULL, principal_type text NOT NULL,
        seq bigserial, PRIMARY KEY (marking_id, principal_id));
      CREATE INDEX directory_marking_members_principal ON directory_marking_members (principal_id);
      CREATE TABLE directory_settings (key text PRIMARY KEY, value text NOT NULL);
    `,
  },
];

export const DIRECTORY_TABLES = [
  'directory_group_members',
  'directory_marking_members',
  'directory_groups',
  'directory_markings',
  'directory_marking_categories',
  'directory_settings',
] as const;

type EdgeRow = { principal_id: string; principal_type: string };
const member = (r: EdgeRow): MemberRecord => ({ principalId: r.principal_id, principalType: r.principal_type as PrincipalKind });

export class PgDirectory implements DirectoryRepo {
  constructor(private readonly db: Db) {}

  async putGroup(g: GroupRecord) {
    await this.db.query('INSERT INTO directory_groups (id, name, record) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET name = $2, record = $3', [
      g.id,
      g.name,
      encode(g),
    ]);
  }
  async group(id: string) {
    const row = await this.db.first<{ record: string }>('SELECT record FROM directory_groups WHERE id = $1', [id]);
    return row && decode<GroupRecord>(row.record);
  }
  async groupByName(name: string) {
    const row = await this.db.first<{ record: string }>('SELECT record FROM directory_groups WHERE name = $1 ORDER BY id LIMIT 1', [name]);
    return row && decode<GroupRecord>(row.record);
  }
  async groups() {
    // COLLATE "C": the same byte order as memory's comparison of strings.
    return (await this.db.rows<{ record: string }>('SELECT record FROM directory_groups ORDER BY name COLLATE "C", id COLLATE "C"')).map((r) =>
      decode<GroupRecord>(r.record),
    );
  }
  async deleteGroup(id: string) {
    return this.db.transaction(async (q) => {
      const gone = (await q.query('DELETE FROM directory_groups WHERE id = $1', [id])).rowCount === 1;
      if (gone) {
        await q.query('DELETE FROM directory_group_members WHERE group_id = $1 OR principal_id = $1', [id]);
        await q.query('DELETE FROM directory_marking_members WHERE principal_id = $1', [id]);
      }
      return gone;
    });
  }
  async addGroupMembers(groupId: string, members: readonly MemberRecord[]) {
    await this.addEdges('directory_group_members', 'group_id', groupId, members);
  }
  async removeGroupMembers(groupId: string, principalIds: readonly string[]) {
    await this.db.query('DELETE FROM directory_group_members WHERE group_id = $1 AND principal_id = ANY($2::text[])', [groupId, principalIds]);
  }
  async groupMembers(groupId: string) {
    return (await this.db.rows<EdgeRow>('SELECT principal_id, principal_type FROM directory_group_members WHERE group_id = $1 ORDER BY seq', [groupId])).map(
      member,
    );
  }
  async allGroupMembers() {
    const rows = await this.db.rows<EdgeRow & { group_id: string }>('SELECT group_id, principal_id, principal_type FROM directory_group_members ORDER BY seq');
    return rows.map((r) => ({ ...member(r), groupId: r.group_id }));
  }
  async groupsHolding(principalIds: readonly string[]) {
    const rows = await this.db.rows<{ group_id: string }>(
      'SELECT group_id FROM directory_group_members WHERE principal_id = ANY($1::text[]) GROUP BY group_id ORDER BY group_id COLLATE "C"',
      [principalIds],
    );
    return rows.map((r) => r.group_id);
  }
  async forgetPrincipal(principalId: string) {
    await this.db.query('DELETE FROM directory_group_members WHERE principal_id = $1', [principalId]);
    await this.db.query('DELETE FROM directory_marking_members WHERE principal_id = $1', [principalId]);
  }
  async putCategory(c: MarkingCategoryRecord) {
    await this.db.query('INSERT INTO directory_marking_categories (id, record) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET record = $2', [c.id, encode(c)]);
  }
  async category(id: string) {
    const row = await this.db.first<{ record: string }>('SELECT record FROM directory_marking_categories WHERE id = $1', [id]);
    return row && decode<MarkingCategoryRecord>(row.record);
  }
  async categories() {
    return (await this.db.rows<{ record: string }>('SELECT record FROM directory_marking_categories ORDER BY id COLLATE "C"')).map((r) =>
      decode<MarkingCategoryRecord>(r.record),
    );
  }
  async putMarking(m: MarkingRecord) {
    await this.db.query('INSERT INTO directory_markings (id, record) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET record = $2', [m.id, encode(m)]);
  }
  async marking(id: string) {
    const row = await this.db.first<{ record: string }>('SELECT record FROM directory_markings WHERE id = $1', [id]);
    return row && decode<MarkingRecord>(row.record);
  }
  async markings() {
    return (await this.db.rows<{ record: string }>('SELECT record FROM directory_markings ORDER BY id COLLATE "C"')).map((r) =>
      decode<MarkingRecord>(r.record),
    );
  }
  async addMarkingMembers(markingId: string, members: readonly MemberRecord[]) {
    await this.addEdges('directory_marking_members', 'marking_id', markingId, members);
  }
  async removeMarkingMembers(markingId: string, principalIds: readonly string[]) {
    await this.db.query('DELETE FROM directory_marking_members WHERE marking_id = $1 AND principal_id = ANY($2::text[])', [markingId, principalIds]);
  }
  async markingMembers(markingId: string) {
    return (
      await this.db.rows<EdgeRow>('SELECT principal_id, principal_type FROM directory_marking_members WHERE marking_id = $1 ORDER BY seq', [markingId])
    ).map(member);
  }
  async markingsOfPrincipals(principalIds: readonly string[]) {
    const rows = await this.db.rows<{ marking_id: string }>(
      'SELECT marking_id FROM directory_marking_members WHERE principal_id = ANY($1::text[]) GROUP BY marking_id ORDER BY marking_id COLLATE "C"',
      [principalIds],
    );
    return rows.map((r) => r.marking_id);
  }
  async setting(key: string) {
    const row = await this.db.first<{ value: string }>('SELECT value FROM directory_settings WHERE key = $1', [key]);
    return row && decode<unknown>(row.value);
  }
  async putSetting(key: string, value: unknown) {
    await this.db.query('INSERT INTO directory_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = $2', [key, encode(value)]);
  }

  /** Adds the members not there yet, in the order given (one statement: the order is the array's). */
  private async addEdges(table: string, column: string, container: string, members: readonly MemberRecord[]) {
    if (members.length === 0) return;
    await this.db.query(
      `INSERT INTO ${table} (${column}, principal_id, principal_type)
       SELECT $1, m.id, m.type FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS m(id, type, n) ORDER BY m.n
       ON CONFLICT DO NOTHING`,
      [container, members.map((m) => m.principalId), members.map((m) => m.principalType)],
    );
  }
}
