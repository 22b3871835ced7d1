// Interface object sets named by interface properties (docs/live-ontology.md, "Interfaces") with the typed client
// (@osdk/client 2.22.0): `client(Interface).where(...)` rewritten for each implementing type through its mapping,
// aggregate, $orderBy and $select on an interface, an interface with one implementer, and the refusals of an
// unknown interface property or an ill-typed value in the platform's envelope (never a 500).
import { describe, expect, it } from 'vitest';
import { createClient, createPlatformClient, type Client } from '@osdk/client';
import { OntologyObjectSets } from '@osdk/foundry.ontologies';
import { controlToken, liveEmulator } from '../clients/conformance-helpers.js';

const RID = 'ri.ontology.main.ontology.sized';
const SEED = `
platform:
  users: [{ username: dev }]
  ontologies:
    - api_name: sized
      display_name: Sized
      rid: ${RID}
      object_types:
        - { api_name: Person, primary_key: id, title_property: fullName, properties: { id: integer, fullName: string, age: integer } }
        - { api_name: Place, primary_key: code, title_property: name, properties: { code: string, name: string, size: integer } }
      objects:
        Person: [{ id: 1, fullName: Ada, age: 36 }, { id: 2, fullName: Bo, age: 20 }, { id: 3, fullName: Cy, age: 50 }]
        Place: [{ code: ldn, name: London, size: 9 }, { code: par, name: Paris, size: 2 }]
      interface_types:
        - api_name: Sized
          properties: { label: string, magnitude: integer }
          implemented_by: { Person: { label: fullName, magnitude: age }, Place: { label: name, magnitude: size } }
        - api_name: Aged
          properties: { years: integer }
          implemented_by: { Person: { years: age } }
`;
const url = liveEmulator(SEED);
const osdkMetadata = { extraUserAgent: '' };
const Sized = { type: 'interface', apiName: 'Sized', osdkMetadata } as never;
const Aged = { type: 'interface', apiName: 'Aged', osdkMetadata } as never;

interface Set {
  where(clause: Record<string, unknown>): Set;
  fetchPage(args?: Record<string, unknown>): Promise<{ data: Array<Record<string, unknown>> }>;
  aggregate(req: Record<string, unknown>): Promise<unknown>;
}
let token = '';
async function client(): Promise<(def: never) => Set> {
  token = await controlToken(url(), 'dev', ['api:ontologies-read']);
  const c: Client = createClient(url(), RID, async () => token);
  return c as unknown as (def: never) => Set;
}
const keys = (page: { data: Array<Record<string, unknown>> }) => page.data.map((o) => `${String(o.$objectType)}:${String(o.$primaryKey)}`);

describe('interface object sets by interface property', () => {
  it('where on interface properties selects across implementing types, each through its mapping', async () => {
    const c = await client();
    const london = await c(Sized).where({ label: 'London' }).fetchPage();
    expect(keys(london)).toEqual(['Place:ldn']);
    expect(london.data[0]!.label).toBe('London');
    expect(london.data[0]!.magnitude).toBe(9);

    expect(
      keys(
        await c(Sized)
          .where({ magnitude: { $gte: 9 } })
          .fetchPage(),
      ).sort(),
    ).toEqual(['Person:1', 'Person:2', 'Person:3', 'Place:ldn']);
    const either = c(Sized).where({ $or: [{ label: { $startsWith: 'B' } }, { $and: [{ magnitude: { $lt: 5 } }, { $not: { label: 'Rome' } }] }] });
    expect(keys(await either.fetchPage()).sort()).toEqual(['Person:2', 'Place:par']);
    expect(
      keys(
        await c(Sized)
          .where({ magnitude: { $gt: 1000 } })
          .fetchPage(),
      ),
    ).toEqual([]);
    // Chained filters are both applied, each through the mapping.
    expect(
      keys(
        await c(Sized)
          .where({ magnitude: { $gte: 9 } })
          .where({ label: { $in: ['Cy', 'London'] } })
          .fetchPage(),
      ).sort(),
    ).toEqual(['Person:3', 'Place:ldn']);
  });

  it('an interface with one implementer is filtered by its own names too', async () => {
    const c = await client();
    expect(
      keys(
        await c(Aged)
          .where({ years: { $lt: 40 } })
          .fetchPage(),
      ).sort(),
    ).toEqual(['Person:1', 'Person:2']);
  });

  it('aggregates over an interface by interface property, with a where and a groupBy', async () => {
    const c = await client();
    expect(await c(Sized).aggregate({ $select: { $count: 'unordered', 'magnitude:max': 'unordered', 'magnitude:sum': 'unordered' } })).toEqual({
      $count: 5,
      magnitude: { max: 50, sum: 117 },
    });
    expect(
      await c(Sized)
        .where({ magnitude: { $lt: 30 } })
        .aggregate({ $select: { $count: 'unordered', 'magnitude:avg': 'unordered' } }),
    ).toEqual({
      $count: 3,
      magnitude: { avg: (20 + 9 + 2) / 3 },
    });
    const grouped = (await c(Sized).aggregate({ $select: { $count: 'unordered' }, $groupBy: { label: 'exact' } })) as Array<{
      $group: { label: string };
      $count: number;
    }>;
    expect(grouped.map((g) => g.$group.label).sort()).toEqual(['Ada', 'Bo', 'Cy', 'London', 'Paris']);
  });

  it('orders by and selects interface properties', async () => {
    const c = await client();
    const ordered = await c(Sized).fetchPage({ $orderBy: { magnitude: 'asc' } });
    expect(ordered.data.map((o) => o.label)).toEqual(['Paris', 'London', 'Bo', 'Ada', 'Cy']);
    const desc = await c(Sized)
      .where({ magnitude: { $gt: 5 } })
      .fetchPage({ $orderBy: { label: 'desc' } });
    expect(desc.data.map((o) => o.label)).toEqual(['London', 'Cy', 'Bo', 'Ada']);
    const selected = await c(Sized).fetchPage({ $select: ['label'] });
    expect(selected.data.map((o) => o.label).sort()).toEqual(['Ada', 'Bo', 'Cy', 'London', 'Paris']);
    expect(selected.data.every((o) => o.magnitude === undefined)).toBe(true);
  });

  it('loadObjectsOrInterfaces (platform SDK): interface objects carry the interface properties, others their own', async () => {
    await client();
    const p = createPlatformClient(url(), async () => token);
    const filtered = {
      type: 'filter',
      objectSet: { type: 'interfaceBase', interfaceType: 'Sized' },
      where: { type: 'lt', field: 'magnitude', value: 30 },
    } as const;
    const res = await OntologyObjectSets.loadObjectsOrInterfaces(p, 'sized', {
      objectSet: filtered,
      select: [],
      selectV2: [],
      orderBy: { fields: [{ field: 'magnitude' }] },
    });
    expect(res.totalCount).toBe('3');
    expect(res.data.map((o) => ({ ...o, __rid: undefined }))).toEqual([
      { label: 'Paris', magnitude: 2, __apiName: 'Place', __primaryKey: 'par', __title: 'Paris', __rid: undefined },
      { label: 'London', magnitude: 9, __apiName: 'Place', __primaryKey: 'ldn', __title: 'London', __rid: undefined },
      { label: 'Bo', magnitude: 20, __apiName: 'Person', __primaryKey: 2, __title: 'Bo', __rid: undefined },
    ]);
    const selected = await OntologyObjectSets.loadObjectsOrInterfaces(p, 'sized', { objectSet: filtered, select: ['label'], selectV2: [], excludeRid: true });
    expect(selected.data.map((o) => Object.keys(o).sort())).toEqual(Array(3).fill(['__apiName', '__primaryKey', '__title', 'label']));
    const people = await OntologyObjectSets.loadObjectsOrInterfaces(p, 'sized', {
      objectSet: { type: 'base', objectType: 'Person' },
      select: [],
      selectV2: [],
      pageSize: 1,
    });
    expect(people.data[0]).toMatchObject({ id: 1, fullName: 'Ada', age: 36 });
    expect(people.nextPageToken).toBeDefined();
  });

  it('refuses an unknown interface property and an ill-typed value in the platform envelope', async () => {
    await client();
    const post = async (route: string, body: unknown) => {
      const res = await fetch(`${url()}/api/v2/ontologies/sized/objectSets/${route}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const sized = { type: 'interfaceBase', interfaceType: 'Sized' };
    const filter = (where: unknown) => ({ objectSet: { type: 'filter', objectSet: sized, where }, select: [], selectV2: [] });

    const unknown = await post('loadObjectsMultipleObjectTypes', filter({ type: 'eq', field: 'fullName', value: 'Ada' }));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({
      errorCode: 'NOT_FOUND',
      errorName: 'InterfacePropertyNotFound',
      parameters: { interfaceType: 'Sized', interfaceProperty: 'fullName' },
    });

    const nested = await post(
      'loadObjectsMultipleObjectTypes',
      filter({ type: 'not', value: { type: 'or', value: [{ type: 'isNull', field: 'nope', value: true }] } }),
    );
    expect(nested.body.errorName).toBe('InterfacePropertyNotFound');

    const badValue = await post('loadObjectsMultipleObjectTypes', filter({ type: 'gt', field: 'magnitude', value: 'big' }));
    expect(badValue.status).toBe(400);
    expect(badValue.body.errorName).toBe('InvalidPropertyFilterValue');

    const badAggregate = await post('aggregate', { objectSet: sized, aggregation: [{ type: 'max', name: 'x', field: 'size' }], groupBy: [] });
    expect(badAggregate.status).toBe(404);
    expect(badAggregate.body.errorName).toBe('InterfacePropertyNotFound');

    const badOrder = await post('loadObjectsMultipleObjectTypes', { objectSet: sized, orderBy: { fields: [{ field: 'age', direction: 'asc' }] } });
    expect(badOrder.status).toBe(404);

    const badSelect = await post('loadObjectsMultipleObjectTypes', { objectSet: sized, select: [], selectV2: [{ type: 'property', apiName: 'age' }] });
    expect(badSelect.status).toBe(404);
    expect(badSelect.body.errorName).toBe('InterfacePropertyNotFound');

    const badClause = await post('loadObjectsMultipleObjectTypes', filter({ type: 'wildcard', field: 'label', value: 'x' }));
    expect(badClause.status).toBe(400);
    expect(badClause.body.errorName).toBe('NotSupportedByEmulator');

    for (const r of [unknown, nested, badValue, badAggregate, badOrder, badSelect, badClause]) expect(typeof r.body.errorInstanceId).toBe('string');
  });
});
