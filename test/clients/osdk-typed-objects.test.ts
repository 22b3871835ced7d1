// Conformance: the platform's typed client (@osdk/client createClient, pinned with @osdk/api) against a live
// server, with hand-written definitions of the kind the SDK generator emits (osdk-typed-definitions.ts):
// objects, paging, where clauses, orderBy, $select, links and aggregations.
import { describe, expect, it } from 'vitest';
import { createClient, PalantirApiError, type Client } from '@osdk/client';
import type { WhereClause } from '@osdk/api';
import { controlToken, liveEmulator, recordingFetch } from './conformance-helpers.js';
import { ACME_RID, ACME_SEED } from '../ontologies/fixture.js';
import { Employee, Office } from './osdk-typed-definitions.js';

const url = liveEmulator(ACME_SEED);

async function client(scopes = ['api:ontologies-read', 'api:ontologies-write'], fetchFn?: typeof fetch): Promise<Client> {
  const token = await controlToken(url(), 'dev', scopes);
  return createClient(url(), ACME_RID, async () => token, undefined, fetchFn);
}

const ids = (page: { data: ReadonlyArray<{ employeeId: number }> }) => page.data.map((e) => e.employeeId);

describe('typed client: objects', () => {
  it('fetchPage walks every page once, with $apiName, $primaryKey, $title and typed values', async () => {
    const c = await client();
    const seen: number[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const page = await c(Employee).fetchPage({ $pageSize: 2, $nextPageToken: token });
      seen.push(...ids(page));
      token = page.nextPageToken;
      pages++;
    } while (token);
    expect(pages).toBe(3);
    expect(seen).toEqual([1, 2, 3, 4, 5]);

    const [alice] = (await c(Employee).fetchPage({ $pageSize: 1 })).data;
    expect(alice!.$apiName).toBe('Employee');
    expect(alice!.$objectType).toBe('Employee');
    expect(alice!.$primaryKey).toBe(1);
    expect(alice!.$title).toBe('Alice Adams');
    expect(alice!.skills).toEqual(['go', 'rust', 'sql']);
    expect(alice!.hiredOn).toBe('2015-03-01');
    expect(alice!.bigId).toBe(9007199254740991);
    expect(alice!.address).toEqual({ city: 'New York', zip: '10001' });
    expect(alice!.home).toEqual({ type: 'Point', coordinates: [-73.99, 40.73] });
  });

  it('fetchOne by primary key, with $select and $includeRid; a missing object is the client error', async () => {
    const c = await client();
    const bob = await c(Employee).fetchOne(2);
    expect(bob.fullName).toBe('Bob Brown');
    expect(bob.$title).toBe('Bob Brown');
    const slim = await c(Employee).fetchOne(3, { $select: ['fullName'], $includeRid: true });
    expect(slim.fullName).toBe('Carol Chen');
    expect((slim as unknown as Record<string, unknown>).salary).toBeUndefined();
    expect(slim.$rid).toMatch(/^ri\.phonograph2-objects\.main\.object\./);
    expect((await c(Office).fetchOne('nyc')).name).toBe('New York');
    const missing = await c(Employee)
      .fetchOne(99)
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(PalantirApiError);
    expect((missing as Error).message).toMatch(/Expected a single result but got 0/);
  });

  it('where: every clause, nested and/or/not', async () => {
    const c = await client();
    const q = async (where: WhereClause<Employee>) => ids(await c(Employee).where(where).fetchPage());
    expect(await q({ title: 'Engineer' })).toEqual([2, 3]);
    expect(await q({ title: { $eq: 'Engineer' } })).toEqual([2, 3]);
    expect(await q({ title: { $ne: 'Engineer' } })).toEqual([1, 4, 5]);
    expect(await q({ salary: { $gt: 120000 } })).toEqual([1, 3]);
    expect(await q({ salary: { $gte: 120000 } })).toEqual([1, 2, 3]);
    // @osdk/api 2.22.0 types filters on short and byte properties as string filters; the client sends numbers.
    const onShort = (w: object) => w as WhereClause<Employee>;
    expect(await q(onShort({ level: { $lt: 4 } }))).toEqual([4, 5]);
    expect(await q(onShort({ level: { $lte: 4 } }))).toEqual([2, 4, 5]);
    expect(await q(onShort({ badge: { $in: [1, 5] } }))).toEqual([1, 5]);
    expect(await q({ hiredOn: { $gte: '2020-01-02' } })).toEqual([3, 4, 5]);
    expect(await q({ lastLogin: { $lt: '2024-05-01T00:00:00Z' } })).toEqual([3]);
    expect(await q({ lastLogin: { $isNull: true } })).toEqual([4, 5]);
    expect(await q({ officeId: { $isNull: false } })).toEqual([1, 2, 3, 4]);
    expect(await q({ officeId: { $in: ['ldn', 'sfo'] } })).toEqual([3, 4]);
    expect(await q({ fullName: { $startsWith: 'Ca' } })).toEqual([3]);
    expect(await q({ bio: { $containsAnyTerm: 'london nothing' } })).toEqual([3]);
    expect(await q({ bio: { $containsAllTerms: 'york team' } })).toEqual([1, 4]);
    expect(await q({ bio: { $containsAllTermsInOrder: 'new york team' } })).toEqual([4]);
    expect(await q({ skills: { $contains: 'go' } })).toEqual([1, 2]);
    expect(await q({ active: false })).toEqual([3]);
    expect(await q({ bonus: { $gt: 600 } })).toEqual([1]);
    expect(await q({ address: { city: 'London' } })).toEqual([3]);
    expect(await q({ $and: [{ officeId: 'nyc' }, { $not: { title: 'Director' } }] })).toEqual([2]);
    expect(await q({ $or: [{ salary: { $gte: 200000 } }, { $and: [{ active: true }, { salary: { $lt: 50000 } }] }] })).toEqual([1, 5]);
    expect(await q({ $not: { $or: [{ officeId: 'nyc' }, { officeId: { $isNull: true } }] } })).toEqual([3, 4]);
  });

  it('orderBy on one and several properties, both directions, absent values last', async () => {
    const c = await client();
    expect(ids(await c(Employee).fetchPage({ $orderBy: { salary: 'desc' } }))).toEqual([1, 3, 2, 4, 5]);
    expect(ids(await c(Employee).fetchPage({ $orderBy: { title: 'asc', hiredOn: 'desc' } }))).toEqual([4, 1, 3, 2, 5]);
    expect(ids(await c(Employee).fetchPage({ $orderBy: { lastLogin: 'asc' } }))).toEqual([3, 1, 2, 4, 5]);
    const paged: number[] = [];
    let token: string | undefined;
    do {
      const page = await c(Employee)
        .where({ active: true })
        .fetchPage({ $orderBy: { fullName: 'desc' }, $pageSize: 1, $nextPageToken: token });
      paged.push(...ids(page));
      token = page.nextPageToken;
    } while (token);
    expect(paged).toEqual([5, 4, 2, 1]);
  });

  it('$select sends selectV2 and gets only those properties', async () => {
    const { fetch: recording, exchanges } = recordingFetch();
    const c = await client(undefined, recording);
    const page = await c(Employee).fetchPage({ $select: ['fullName', 'title'], $pageSize: 2 });
    expect(page.data.map((e) => [e.fullName, e.title])).toEqual([
      ['Alice Adams', 'Director'],
      ['Bob Brown', 'Engineer'],
    ]);
    expect(
      Object.keys(page.data[0]!)
        .filter((k) => !k.startsWith('$'))
        .sort(),
    ).toEqual(['fullName', 'title']);
    const load = exchanges.find((e) => e.url.includes('/objectSets/loadObjects'))!;
    expect(load.status).toBe(200);
  });

  it('links: one and many, both directions, and many-to-many both ways', async () => {
    const c = await client();
    const carol = await c(Employee).fetchOne(3);
    expect((await carol.$link.office.fetchOne()).name).toBe('London');
    const nyc = await c(Office).fetchOne('nyc');
    expect(ids(await nyc.$link.occupants.fetchPage())).toEqual([1, 2]);
    expect(ids(await carol.$link.mentors.fetchPage())).toEqual([1, 2]);
    expect(ids(await carol.$link.mentees.fetchPage())).toEqual([4]);
    const alice = await c(Employee).fetchOne(1);
    expect(ids(await alice.$link.mentees.where({ active: true }).fetchPage())).toEqual([2]);
    expect(ids(await c(Office).where({ officeId: 'ldn' }).pivotTo('occupants').pivotTo('mentors').fetchPage())).toEqual([1, 2, 3]);
    const eve = await c(Employee).fetchOne(5);
    await expect(eve.$link.office.fetchOne()).rejects.toBeInstanceOf(PalantirApiError);
    expect(
      ids(
        await c(Employee)
          .where({ officeId: 'nyc' })
          .union(c(Employee).where({ employeeId: 5 }))
          .fetchPage(),
      ),
    ).toEqual([1, 2, 5]);
    expect(
      ids(
        await c(Employee)
          .where({ officeId: 'nyc' })
          .subtract(c(Employee).where({ employeeId: 1 }))
          .fetchPage(),
      ),
    ).toEqual([2]);
    expect(
      ids(
        await c(Employee)
          .where({ active: true })
          .intersect(c(Employee).where({ officeId: 'ldn' }))
          .fetchPage(),
      ),
    ).toEqual([4]);
  });

  it('aggregate: count, min, max, sum, avg, exactDistinct, with and without groupBy', async () => {
    const c = await client();
    const all = await c(Employee).aggregate({
      $select: {
        $count: 'unordered',
        'salary:min': 'unordered',
        'salary:max': 'unordered',
        'salary:sum': 'unordered',
        'salary:avg': 'unordered',
        'officeId:exactDistinct': 'unordered',
      },
    });
    expect(all.$count).toBe(5);
    expect(all.salary).toEqual({ min: 40000, max: 200000, sum: 580000, avg: 116000 });
    expect(all.officeId.exactDistinct).toBe(2);
    const byOffice = await c(Employee).aggregate({ $select: { $count: 'unordered', 'salary:avg': 'unordered' }, $groupBy: { officeId: 'exact' } });
    expect(byOffice.map((g) => [g.$group.officeId, g.$count, g.salary.avg])).toEqual([
      ['nyc', 2, 160000],
      ['ldn', 2, 110000],
    ]);
    const byLevel = await c(Employee)
      .where({ active: true })
      .aggregate({
        $select: { $count: 'unordered', 'level:max': 'unordered' },
        $groupBy: {
          level: {
            $ranges: [
              [0, 3],
              [3, 10],
            ],
          },
        },
      });
    expect(byLevel.map((g) => [g.$group.level, g.$count, g.level.max])).toEqual([
      [{ startValue: 3, endValue: 10 }, 2, 7],
      [{ startValue: 0, endValue: 3 }, 2, 2],
    ]);
    const desc = await c(Employee).aggregate({ $select: { $count: 'desc' }, $groupBy: { title: 'exact' } });
    expect(desc[0]).toMatchObject({ $group: { title: 'Engineer' }, $count: 2 });
  });
});
