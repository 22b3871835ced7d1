// Derived properties beyond loading (docs/live-ontology.md, "Derived properties") with the typed client's
// withProperties (@osdk/client 2.22.0): aggregations over and grouped by derived properties, a `where` and an
// `$orderBy` and a `$select` naming them, and the refusals of bad definitions and bad uses in the platform's
// error envelope (never a 500). The seed's mentors: 2 -> [1], 3 -> [1, 2], 4 -> [3]; offices: 1, 2 New York,
// 3, 4 London, 5 none.
import { describe, expect, it } from 'vitest';
import { createClient, type Client } from '@osdk/client';
import { controlToken, liveEmulator } from '../clients/conformance-helpers.js';
import { ACME_RID, ACME_SEED } from './fixture.js';
import { Employee } from '../clients/osdk-typed-definitions.js';

const url = liveEmulator(ACME_SEED);

type Builder = { pivotTo(link: string): Builder; aggregate(a: string, opt?: unknown): unknown; selectProperty(p: string): unknown };
type Derived = Record<string, (b: Builder) => unknown>;
interface Set {
  where(clause: Record<string, unknown>): Set;
  union(...sets: Set[]): Set;
  fetchPage(args?: Record<string, unknown>): Promise<{ data: Array<Record<string, unknown>> }>;
  aggregate(req: Record<string, unknown>): Promise<unknown>;
}

let token = '';
async function client(): Promise<Client> {
  token = await controlToken(url(), 'dev', ['api:ontologies-read']);
  return createClient(url(), ACME_RID, async () => token);
}
const derived = (c: Client, d: Derived) => (c(Employee) as unknown as { withProperties(d: Derived): Set }).withProperties(d);
const withCounts = (c: Client) =>
  derived(c, {
    mentorCount: (b) => b.pivotTo('mentors').aggregate('$count'),
    officeName: (b) => b.pivotTo('office').selectProperty('name'),
    topMentorSalary: (b) => b.pivotTo('mentors').aggregate('salary:max'),
  });

async function post(path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${url()}/api/v2/ontologies/acme/objectSets/${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
const withProperties = (derivedProperties: unknown) => ({ type: 'withProperties', objectSet: { type: 'base', objectType: 'Employee' }, derivedProperties });
const mentorCount = {
  type: 'selection',
  objectSet: { type: 'searchAround', objectSet: { type: 'methodInput' }, link: 'mentors' },
  operation: { type: 'count' },
};

describe('withProperties: aggregate, where, orderBy and select over derived properties', () => {
  it('aggregates derived properties, without and with a groupBy on a derived property', async () => {
    const c = await client();
    const all = (await withCounts(c).aggregate({
      $select: { $count: 'unordered', 'mentorCount:sum': 'unordered', 'mentorCount:avg': 'unordered', 'topMentorSalary:min': 'unordered' },
    })) as Record<string, unknown>;
    expect(all).toEqual({ $count: 5, mentorCount: { sum: 4, avg: 0.8 }, topMentorSalary: { min: 130000 } });

    const byOffice = (await withCounts(c).aggregate({
      $select: { $count: 'unordered', 'mentorCount:max': 'unordered', 'mentorCount:sum': 'unordered' },
      $groupBy: { officeName: 'exact' },
    })) as Array<{ $group: Record<string, unknown>; $count: number; mentorCount: Record<string, number> }>;
    const rows = byOffice.map((r) => [r.$group.officeName, r.$count, r.mentorCount.max, r.mentorCount.sum]).sort();
    expect(rows).toEqual([
      ['London', 2, 2, 3],
      ['New York', 2, 1, 1],
    ]);

    const byCount = (await withCounts(c).aggregate({ $select: { $count: 'unordered' }, $groupBy: { mentorCount: 'exact' } })) as Array<{
      $group: { mentorCount: number };
      $count: number;
    }>;
    expect(byCount.map((r) => [r.$group.mentorCount, r.$count]).sort()).toEqual([
      [0, 2],
      [1, 2],
      [2, 1],
    ]);
  });

  it('filters on a derived property (fetchPage and aggregate), orders by one and selects one', async () => {
    const c = await client();
    const mentored = withCounts(c).where({ mentorCount: { $gt: 0 } });
    const page = await mentored.fetchPage();
    expect(page.data.map((e) => e.employeeId).sort()).toEqual([2, 3, 4]);
    expect(await mentored.aggregate({ $select: { $count: 'unordered', 'topMentorSalary:max': 'unordered' } })).toEqual({
      $count: 3,
      topMentorSalary: { max: 200000 },
    });
    const inLondon = await withCounts(c).where({ officeName: 'London' }).fetchPage();
    expect(inLondon.data.map((e) => e.employeeId).sort()).toEqual([3, 4]);

    const ordered = await withCounts(c).fetchPage({ $orderBy: { mentorCount: 'desc' } });
    expect(ordered.data.map((e) => e.mentorCount)).toEqual([2, 1, 1, 0, 0]);
    expect(ordered.data[0]!.employeeId).toBe(3);

    // A union of two filtered withProperties sets is still one object type with its derived properties.
    const both = withCounts(c)
      .where({ officeName: 'London' })
      .union(withCounts(c).where({ mentorCount: 0 }));
    expect(await both.aggregate({ $select: { $count: 'unordered', 'mentorCount:sum': 'unordered' } })).toEqual({ $count: 4, mentorCount: { sum: 3 } });

    const selected = await withCounts(c).fetchPage({ $select: ['fullName', 'mentorCount'] });
    const carol = selected.data.find((e) => e.$primaryKey === 3)!;
    expect(carol.mentorCount).toBe(2);
    expect(carol.fullName).toBe('Carol Chen');
    expect(carol.title).toBeUndefined();
  });

  it('computes the other operations: collectSet, exactDistinct, approximatePercentile, a property copy', async () => {
    const c = await client();
    const page = await derived(c, {
      mentorTitles: (b) => b.pivotTo('mentors').aggregate('title:collectSet', { limit: 10 }),
      mentorTitleCount: (b) => b.pivotTo('mentors').aggregate('title:exactDistinct'),
      medianMentorSalary: (b) => b.pivotTo('mentors').aggregate('salary:approximatePercentile', { percentile: 0.5 }),
      name: (b) => b.selectProperty('fullName'),
    }).fetchPage();
    const carol = page.data.find((e) => e.$primaryKey === 3)!;
    expect([...(carol.mentorTitles as string[])].sort()).toEqual(['Director', 'Engineer']);
    expect(carol.mentorTitleCount).toBe(2);
    expect(carol.medianMentorSalary).toBe(160000);
    expect(carol.name).toBe('Carol Chen');
  });

  it('refuses bad definitions and bad uses of derived properties in the platform envelope', async () => {
    await client();
    const cases: Array<[string, unknown, number, string]> = [
      ['aggregate', { objectSet: withProperties({ mentorCount }), aggregation: [{ type: 'max', name: 'x', field: 'nope' }] }, 404, 'PropertiesNotFound'],
      [
        'loadObjects',
        { objectSet: { type: 'filter', objectSet: withProperties({ mentorCount }), where: { type: 'eq', field: 'mentorCount', value: 'two' } } },
        400,
        'InvalidPropertyFilterValue',
      ],
      [
        'aggregate',
        {
          objectSet: withProperties({
            officeName: {
              ...mentorCount,
              objectSet: { ...mentorCount.objectSet, link: 'office' },
              operation: { type: 'get', selectedPropertyApiName: 'name' },
            },
          }),
          aggregation: [{ type: 'sum', name: 's', field: 'officeName' }],
        },
        400,
        'InvalidArgument',
      ],
      ['loadObjects', { objectSet: withProperties({ fullName: mentorCount }) }, 400, 'DerivedPropertyApiNamesNotUnique'],
      [
        'loadObjects',
        { objectSet: withProperties({ x: { ...mentorCount, operation: { type: 'sum', selectedPropertyApiName: 'title' } } }) },
        400,
        'InvalidDerivedPropertyDefinition',
      ],
      [
        'loadObjects',
        { objectSet: withProperties({ x: { ...mentorCount, operation: { type: 'max', selectedPropertyApiName: 'nope' } } }) },
        404,
        'PropertiesNotFound',
      ],
      ['loadObjects', { objectSet: withProperties({ x: { ...mentorCount, objectSet: { ...mentorCount.objectSet, link: 'nope' } } }) }, 404, 'LinkTypeNotFound'],
      ['loadObjects', { objectSet: withProperties({ x: { ...mentorCount, operation: { type: 'median' } } }) }, 400, 'NotSupportedByEmulator'],
      ['loadObjects', { objectSet: withProperties({ x: { type: 'add', properties: [] } }) }, 400, 'NotSupportedByEmulator'],
      ['loadObjects', { objectSet: withProperties([1, 2]) }, 400, 'InvalidArgument'],
      ['aggregate', { objectSet: withProperties({ x: 7 }), aggregation: [{ type: 'count' }] }, 400, 'InvalidArgument'],
    ];
    for (const [route, body, status, errorName] of cases) {
      const res = await post(route, body);
      expect({ route, status: res.status, errorName: res.body.errorName }).toEqual({ route, status, errorName });
      expect(typeof res.body.errorInstanceId).toBe('string');
    }
  });

  it('refuses a bad definition even when the set under it is empty', async () => {
    await client();
    const empty = { type: 'filter', objectSet: { type: 'base', objectType: 'Employee' }, where: { type: 'eq', field: 'employeeId', value: 999 } };
    const res = await post('aggregate', {
      objectSet: {
        type: 'withProperties',
        objectSet: empty,
        derivedProperties: { x: { ...mentorCount, operation: { type: 'max', selectedPropertyApiName: 'nope' } } },
      },
      aggregation: [{ type: 'count', name: 'count' }],
    });
    expect(res.status).toBe(404);
    expect(res.body.errorName).toBe('PropertiesNotFound');
  });
});
