// Conformance: the platform SDK's ontology namespaces (@osdk/foundry.ontologies 2.57.0 through
// createPlatformClient) against the conformance seed: objects, linked objects, object sets, query types,
// action types and actions (docs/contracts.md §9).
import { beforeEach, describe, expect, it } from 'vitest';
import { createPlatformClient } from '@osdk/client';
import {
  Actions,
  ActionTypesV2,
  LinkedObjectsV2,
  ObjectTypesV2,
  OntologiesV2,
  OntologyObjectSets,
  OntologyObjectsV2,
  Queries,
  QueryTypes,
} from '@osdk/foundry.ontologies';
import { controlToken, liveEmulator } from './conformance-helpers.js';
import { ACME_RID, ACME_SEED } from '../ontologies/fixture.js';

const url = liveEmulator(ACME_SEED);
const client = async (scopes = ['api:ontologies-read', 'api:ontologies-write']) => {
  const token = await controlToken(url(), 'dev', scopes);
  return createPlatformClient(url(), async () => token);
};
const keys = (r: { data: Array<Record<string, unknown>> }) => r.data.map((o) => o.__primaryKey);

beforeEach(async () => {
  expect((await fetch(`${url()}/_emulate/platform/reset`, { method: 'POST' })).status).toBe(200);
});

describe('platform SDK: ontology objects', () => {
  it('OntologyObjectsV2: list with paging, orderBy and select; get; count; search; aggregate', async () => {
    const c = await client();
    const first = await OntologyObjectsV2.list(c, 'acme', 'Employee', { select: ['fullName'], pageSize: 3, orderBy: 'properties.salary:desc' });
    expect(keys(first)).toEqual([1, 3, 2]);
    expect(first.totalCount).toBe('5');
    expect(first.data[0]).toEqual({
      fullName: 'Alice Adams',
      __apiName: 'Employee',
      __primaryKey: 1,
      __title: 'Alice Adams',
      __rid: expect.stringMatching(/^ri\./),
    });
    const rest = await OntologyObjectsV2.list(c, ACME_RID, 'Employee', {
      select: [],
      pageSize: 3,
      orderBy: 'properties.salary:desc',
      pageToken: first.nextPageToken,
    });
    expect(keys(rest)).toEqual([4, 5]);
    expect(rest.nextPageToken).toBeUndefined();

    const carol = await OntologyObjectsV2.get(c, 'acme', 'Employee', '3', { select: [], excludeRid: true });
    expect(carol).toMatchObject({ fullName: 'Carol Chen', officeId: 'ldn', __primaryKey: 3 });
    expect(carol.__rid).toBeUndefined();
    expect((await OntologyObjectsV2.get(c, 'acme', 'Office', 'ldn', { select: ['name'] })).name).toBe('London');

    expect(await OntologyObjectsV2.count(c, 'acme', 'Employee')).toEqual({ count: 5 });
    const found = await OntologyObjectsV2.search(c, 'acme', 'Employee', {
      where: {
        type: 'and',
        value: [
          { type: 'eq', field: 'active', value: true },
          { type: 'gte', field: 'hiredOn', value: '2019-01-01' },
        ],
      },
      orderBy: { fields: [{ field: 'hiredOn', direction: 'desc' }] },
      select: ['hiredOn'],
      selectV2: [],
    });
    expect(keys(found)).toEqual([5, 4, 2]);
    const agg = await OntologyObjectsV2.aggregate(c, 'acme', 'Employee', {
      aggregation: [{ type: 'max', field: 'hiredOn', name: 'latest' }],
      groupBy: [{ type: 'exact', field: 'active' }],
    });
    expect(agg.data).toEqual([
      { group: { active: true }, metrics: [{ name: 'latest', value: '2024-06-01' }] },
      { group: { active: false }, metrics: [{ name: 'latest', value: '2020-01-02' }] },
    ]);
  });

  it('errors: ObjectTypeNotFound, ObjectNotFound, PropertiesNotFound, LinkTypeNotFound, LinkedObjectNotFound', async () => {
    const c = await client();
    await expect(OntologyObjectsV2.get(c, 'acme', 'Ghost', '1', { select: [] })).rejects.toMatchObject({
      statusCode: 404,
      errorName: 'ObjectTypeNotFound',
      parameters: { objectType: 'Ghost' },
    });
    await expect(OntologyObjectsV2.get(c, 'acme', 'Employee', '42', { select: [] })).rejects.toMatchObject({
      statusCode: 404,
      errorName: 'ObjectNotFound',
      parameters: { objectType: 'Employee', primaryKey: 42 },
    });
    await expect(OntologyObjectsV2.list(c, 'acme', 'Employee', { select: ['nope'] })).rejects.toMatchObject({
      statusCode: 404,
      errorName: 'PropertiesNotFound',
      parameters: { properties: ['nope'] },
    });
    await expect(LinkedObjectsV2.listLinkedObjects(c, 'acme', 'Employee', '1', 'boss', { select: [] })).rejects.toMatchObject({
      errorName: 'LinkTypeNotFound',
    });
    await expect(LinkedObjectsV2.getLinkedObject(c, 'acme', 'Employee', '1', 'office', 'ldn', { select: [] })).rejects.toMatchObject({
      statusCode: 404,
      errorName: 'LinkedObjectNotFound',
      parameters: { linkType: 'office', linkedObjectType: 'Office', linkedObjectPrimaryKey: 'ldn' },
    });
  });

  it('LinkedObjectsV2: one-to-many both ways and many-to-many', async () => {
    const c = await client();
    expect(keys(await LinkedObjectsV2.listLinkedObjects(c, 'acme', 'Office', 'ldn', 'occupants', { select: [] }))).toEqual([3, 4]);
    expect((await LinkedObjectsV2.getLinkedObject(c, 'acme', 'Employee', '1', 'office', 'nyc', { select: [] })).name).toBe('New York');
    expect(keys(await LinkedObjectsV2.listLinkedObjects(c, 'acme', 'Employee', '1', 'mentees', { select: [], orderBy: 'p.employeeId:desc' }))).toEqual([3, 2]);
    const paged = await LinkedObjectsV2.listLinkedObjects(c, 'acme', 'Employee', '3', 'mentors', { select: [], pageSize: 1 });
    expect(keys(paged)).toEqual([1]);
    expect(
      keys(await LinkedObjectsV2.listLinkedObjects(c, 'acme', 'Employee', '3', 'mentors', { select: [], pageSize: 1, pageToken: paged.nextPageToken })),
    ).toEqual([2]);
  });

  it('OntologyObjectSets: load, loadMultipleObjectTypes (static rids), aggregate; an unsupported clause is named', async () => {
    const c = await client();
    const base = { type: 'base', objectType: 'Employee' } as const;
    const loaded = await OntologyObjectSets.load(c, 'acme', {
      objectSet: {
        type: 'searchAround',
        objectSet: { type: 'filter', objectSet: { type: 'base', objectType: 'Office' }, where: { type: 'eq', field: 'officeId', value: 'nyc' } },
        link: 'occupants',
      },
      select: [],
      selectV2: [],
    });
    expect(keys(loaded)).toEqual([1, 2]);
    const rids = loaded.data.map((o) => o.__rid as string);
    const office = await OntologyObjectsV2.get(c, 'acme', 'Office', 'sfo', { select: [] });
    const multi = await OntologyObjectSets.loadMultipleObjectTypes(c, 'acme', {
      objectSet: { type: 'static', objects: [rids[1]!, office.__rid as string] },
      select: [],
      selectV2: [],
    });
    expect(multi.data.map((o) => [o.__apiName, o.__primaryKey])).toEqual([
      ['Employee', 2],
      ['Office', 'sfo'],
    ]);
    const agg = await OntologyObjectSets.aggregate(c, 'acme', {
      objectSet: base,
      aggregation: [
        { type: 'approximateDistinct', field: 'title', name: 'titles' },
        { type: 'sum', field: 'level' },
      ],
      groupBy: [],
    });
    expect(agg.data).toEqual([
      {
        group: {},
        metrics: [
          { name: 'titles', value: 4 },
          { name: 'level.sum', value: 19 },
        ],
      },
    ]);
    await expect(
      OntologyObjectSets.load(c, 'acme', {
        objectSet: { type: 'filter', objectSet: base, where: { type: 'regex', field: 'fullName', value: 'A.*' } },
        select: [],
        selectV2: [],
      }),
    ).rejects.toMatchObject({ statusCode: 400, errorCode: 'INVALID_ARGUMENT', parameters: { 'where clause': 'regex' } });
    await expect(
      OntologyObjectSets.aggregate(c, 'acme', {
        objectSet: base,
        aggregation: [{ type: 'count' }],
        groupBy: [{ type: 'fixedWidth', field: 'level', fixedWidth: 2 }],
      }),
    ).rejects.toMatchObject({
      statusCode: 400,
      parameters: { groupBy: 'fixedWidth' },
    });
  });
});

describe('platform SDK: metadata, queries and actions', () => {
  it('OntologiesV2.getFullMetadata, ObjectTypesV2, QueryTypes and ActionTypesV2 describe the seed', async () => {
    const c = await client();
    const full = await OntologiesV2.getFullMetadata(c, 'acme');
    expect(Object.keys(full.objectTypes)).toEqual(['Employee', 'Office']);
    expect(Object.keys(full.queryTypes)).toEqual(['greet:1.2.0', 'headcount:0.0.0', 'untyped:0.0.0']);
    const employee = await ObjectTypesV2.get(c, 'acme', 'Employee');
    expect(employee).toMatchObject({ apiName: 'Employee', primaryKey: 'employeeId', titleProperty: 'fullName', pluralDisplayName: 'Employees' });
    expect(employee.properties.skills!.dataType).toEqual({ type: 'array', subType: { type: 'string' }, reducers: [] });
    const links = await ObjectTypesV2.listOutgoingLinkTypes(c, 'acme', 'Employee');
    expect(links.data.map((l) => [l.apiName, l.objectTypeApiName, l.cardinality])).toEqual([
      ['office', 'Office', 'ONE'],
      ['mentors', 'Employee', 'MANY'],
      ['mentees', 'Employee', 'MANY'],
    ]);
    expect((await ObjectTypesV2.getOutgoingLinkType(c, 'acme', 'Office', 'occupants')).cardinality).toBe('MANY');
    const greet = await QueryTypes.get(c, 'acme', 'greet', {});
    expect(greet).toMatchObject({ apiName: 'greet', version: '1.2.0', parameters: { name: { dataType: { type: 'string' } } }, output: { type: 'string' } });
    expect((await QueryTypes.list(c, 'acme')).data).toHaveLength(3);
    const promote = await ActionTypesV2.get(c, 'acme', 'promoteEmployee');
    expect(promote.parameters.employee).toEqual({
      displayName: 'employee',
      dataType: { type: 'object', objectApiName: 'Employee', objectTypeApiName: 'Employee' },
      required: true,
      typeClasses: [],
    });
    expect((await ActionTypesV2.list(c, 'acme')).data.map((a) => a.apiName)).toEqual([
      'promoteEmployee',
      'hireEmployee',
      'assignMentor',
      'moveEmployee',
      'fireEmployee',
    ]);
  });

  it('Queries.execute checks declared parameters: UnknownParameter', async () => {
    const c = await client();
    expect(await Queries.execute(c, 'acme', 'greet', { parameters: { name: 'Zoe' } })).toEqual({ value: 'hello Zoe' });
    await expect(Queries.execute(c, 'acme', 'greet', { parameters: { name: 'Zoe', extra: 1 } })).rejects.toMatchObject({
      statusCode: 400,
      errorName: 'UnknownParameter',
      parameters: { unknownParameters: ['extra'] },
    });
    expect(await Queries.execute(c, 'acme', 'untyped', { parameters: { anything: 1 } })).toEqual({ value: 17 });
  });

  it('Actions.apply with ALL_V2_WITH_DELETIONS reports a deletion; applyBatch; unknown parameters are ParametersNotFound', async () => {
    const c = await client();
    const res = await Actions.apply(c, 'acme', 'fireEmployee', { parameters: { employee: 5 }, options: { returnEdits: 'ALL_V2_WITH_DELETIONS' } });
    expect(res.edits).toEqual({
      type: 'edits',
      edits: [{ type: 'deleteObject', objectType: 'Employee', primaryKey: 5 }],
      addedObjectCount: 0,
      modifiedObjectsCount: 0,
      deletedObjectsCount: 1,
      addedLinksCount: 0,
      deletedLinksCount: 0,
    });
    expect(await OntologyObjectsV2.count(c, 'acme', 'Employee')).toEqual({ count: 4 });
    const batch = await Actions.applyBatch(c, 'acme', 'promoteEmployee', {
      requests: [{ parameters: { employee: 1, newTitle: 'CEO' } }],
      options: { returnEdits: 'ALL' },
    });
    expect(batch.edits).toMatchObject({ type: 'edits', modifiedObjectsCount: 1 });
    await expect(Actions.apply(c, 'acme', 'promoteEmployee', { parameters: { employee: 1, newTitle: 'x', bogus: true } })).rejects.toMatchObject({
      statusCode: 400,
      errorName: 'ParametersNotFound',
      parameters: { actionType: 'promoteEmployee', unknownParameterIds: ['bogus'] },
    });
    await expect(Actions.apply(c, 'acme', 'nope', { parameters: {} })).rejects.toMatchObject({
      statusCode: 404,
      errorName: 'ActionTypeNotFound',
      parameters: { actionType: 'nope' },
    });
  });
});
