// 10,000 users and 1,000 groups (the bench scenario's data, bench/lib/directory-seed.ts): every user is listed
// exactly once across pages, and getMarkings finds the marking five levels of groups up (docs/directory.md).
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { bearer, buildTestApp, mintToken } from '../helpers/app.js';
import { writeDirectorySeed, MARKING } from '../../bench/lib/directory-seed.js';
import { stableUuid } from '../../src/ids.js';

describe('directory at scale', () => {
  // On both stores. (It once failed on PostgreSQL with 'relation "users" does not exist' mid-seed, on a branch
  // whose store parts were still being merged; it has passed there since.)
  it('pages 10,000 users and walks 5 levels among 1,000 groups', async () => {
    const seed = JSON.parse(readFileSync(writeDirectorySeed(10_000), 'utf8')) as Record<string, unknown>;
    const { app } = await buildTestApp({ seed });
    const token = await mintToken(app, 'deep', ['api:admin-read']);
    const seen = new Set<string>();
    let url = '/api/v2/admin/users?pageSize=3000';
    for (let i = 0; i < 10; i++) {
      const page = (await app.inject({ url, headers: bearer(token) })).json() as { data: Array<{ id: string }>; nextPageToken?: string };
      for (const u of page.data) seen.add(u.id);
      if (!page.nextPageToken) break;
      url = `/api/v2/admin/users?pageSize=3000&pageToken=${page.nextPageToken}`;
    }
    expect(seen.size).toBe(10_001); // the seeded users and the default admin
    const markings = (await app.inject({ url: `/api/v2/admin/users/${stableUuid('user:deep')}/getMarkings`, headers: bearer(token) })).json();
    expect(markings).toEqual({ view: [MARKING] });
    const groups = (
      await app.inject({ url: `/api/v2/admin/users/${stableUuid('user:deep')}/groupMemberships?transitive=true`, headers: bearer(token) })
    ).json();
    expect(groups.data).toHaveLength(5);
    const all = (await app.inject({ url: '/api/v2/admin/groups', headers: bearer(token) })).json();
    expect(all.data).toHaveLength(1000);
    expect(all).not.toHaveProperty('nextPageToken');
  }, 180_000);
});
