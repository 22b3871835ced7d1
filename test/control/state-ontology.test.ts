// State export of ontologies (docs/contracts.md §7, §9): object types, objects as actions and the control routes left
// them, links (foreign keys and pairs), typed queries and action types round-trip through a second app to an
// equal export, and the typed routes of both apps answer the same objects, links and query results.
import { describe, expect, it } from 'vitest';
import { mergeTestSeeds, validateTestSeed } from '../helpers/seed.js';
import type { FastifyInstance } from 'fastify';
import { parse } from 'yaml';
import { bearer, buildTestApp, mintToken } from '../helpers/app.js';
import { ACME_SEED } from '../ontologies/fixture.js';

import { captureLog } from '../journal/helpers.js';

// docs/contracts.md §9's example as it is written there, plus `title: string` on Employee: the example's action sets
// `title`, which the example's Employee does not declare, and the loader (rightly) refuses that.
const CONTRACT_SEED = `
platform:
  users: [{ username: dev }]
  ontologies:
    - api_name: acme
      display_name: Acme
      rid: ri.ontology.main.ontology.acme
      object_types:
        - api_name: Employee
          display_name: Employee
          plural_display_name: Employees
          primary_key: employeeId
          title_property: fullName
          properties:
            employeeId: integer
            fullName: string
            title: string
            hiredOn: date
            officeId: string
            skills: { type: array, subType: { type: string } }
          links:
            - api_name: office
              target: Office
              foreign_key: officeId
              reverse: occupants
            - api_name: mentors
              target: Employee
              reverse: mentees
              pairs: [[2, 1]]
        - api_name: Office
          primary_key: officeId
          properties: { officeId: string, name: string }
      objects:
        Office:   [ { officeId: nyc, name: New York } ]
        Employee:
          - { employeeId: 1, fullName: Alice, officeId: nyc, hiredOn: "2020-01-02", skills: [go] }
          - { employeeId: 2, fullName: Bob, officeId: nyc, hiredOn: "2021-05-06", skills: [] }
      queries:
        - api_name: greet
          version: 1.0.0
          parameters: { name: string }
          output: string
          cases:
            - when: { name: Zoe }
              result: { value: hello Zoe }
          result: { value: "hello, stranger" }
      action_types:
        - api_name: promoteEmployee
          parameters:
            employee: { type: object, objectTypeApiName: Employee }
            newTitle: string
          edits:
            - modify: Employee
              primary_key: $employee
              set: { title: $newTitle }
`;

const SCOPES = ['api:ontologies-read', 'api:ontologies-write'];

async function exportJson(app: FastifyInstance): Promise<{ platform: Record<string, unknown>; leftOut?: string[] }> {
  const res = await app.inject({ url: '/_emulate/platform/state' });
  expect(res.statusCode).toBe(200);
  return res.json();
}

async function apply(app: FastifyInstance, token: string, action: string, parameters: Record<string, unknown>) {
  const res = await app.inject({ method: 'POST', url: `/api/v2/ontologies/acme/actions/${action}/apply`, headers: bearer(token), payload: { parameters } });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().validation.result, res.body).toBe('VALID');
}

/** What the typed routes answer: every object of every type, and every link of every object (sorted by key). */
async function observed(app: FastifyInstance, token: string) {
  const get = async (url: string) => {
    const res = await app.inject({ url, headers: bearer(token) });
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res.json();
  };
  const out: Record<string, unknown> = {};
  const types = (await get('/api/v2/ontologies/acme/objectTypes')).data as Array<{ apiName: string }>;
  for (const { apiName } of types) {
    const objects = (await get(`/api/v2/ontologies/acme/objects/${apiName}?pageSize=10000`)).data as Array<Record<string, unknown>>;
    out[apiName] = objects;
    const links = (await get(`/api/v2/ontologies/acme/objectTypes/${apiName}/outgoingLinkTypes`)).data as Array<{ apiName: string }>;
    for (const o of objects) {
      for (const l of links) {
        const linked = (await get(`/api/v2/ontologies/acme/objects/${apiName}/${String(o.__primaryKey)}/links/${l.apiName}`)).data as Array<{
          __primaryKey: unknown;
        }>;
        out[`${apiName} ${String(o.__primaryKey)} ${l.apiName}`] = linked.map((t) => String(t.__primaryKey)).sort();
      }
    }
  }
  for (const [query, parameters] of [
    ['greet', { name: 'Zoe' }],
    ['greet', { name: 'Ann' }],
    ['greet', { name: 'Zoe', times: 2 }],
    ['headcount', { office: 'nyc' }],
    ['untyped', {}],
    ['later', {}],
  ] as const) {
    const res = await app.inject({ method: 'POST', url: `/api/v2/ontologies/acme/queries/${query}/execute`, headers: bearer(token), payload: { parameters } });
    out[`${query} ${JSON.stringify(parameters)}`] = [res.statusCode, res.json()];
  }
  out.metadata = await get('/api/v2/ontologies/acme/fullMetadata');
  return out;
}

async function roundTrip(first: { platform: Record<string, unknown> }) {
  const second = await buildTestApp({ seed: first });
  expect(second.summary.warnings.filter((w) => !/scope|open mode/.test(w))).toEqual([]);
  return second;
}

describe('state export of ontologies', () => {
  it('docs/contracts.md §9 example: an action modifies an object; export, second app, export again are equal', async () => {
    const { app } = await buildTestApp({ seed: CONTRACT_SEED });
    const token = await mintToken(app, 'dev', SCOPES);
    await apply(app, token, 'promoteEmployee', { employee: 1, newTitle: 'Director' });
    const first = await exportJson(app);
    const acme = (first.platform.ontologies as Array<Record<string, unknown>>)[0]!;
    expect(acme.objects).toEqual({
      Office: [{ officeId: 'nyc', name: 'New York' }],
      Employee: [
        { employeeId: 1, fullName: 'Alice', officeId: 'nyc', hiredOn: '2020-01-02', skills: ['go'], title: 'Director' },
        { employeeId: 2, fullName: 'Bob', officeId: 'nyc', hiredOn: '2021-05-06', skills: [] },
      ],
    });
    const employee = (acme.object_types as Array<Record<string, unknown>>)[0]!;
    expect(employee.links).toEqual([
      { api_name: 'office', display_name: 'office', target: 'Office', foreign_key: 'officeId', reverse: 'occupants', reverse_display_name: 'occupants' },
      { api_name: 'mentors', display_name: 'mentors', target: 'Employee', reverse: 'mentees', reverse_display_name: 'mentees', pairs: [[2, 1]] },
    ]);
    expect(employee.properties).toMatchObject({ employeeId: 'integer', skills: { type: 'array', subType: 'string' } });
    expect(acme.queries).toEqual([
      {
        api_name: 'greet',
        version: '1.0.0',
        parameters: { name: 'string' },
        output: 'string',
        cases: [{ when: { name: 'Zoe' }, result: { value: 'hello Zoe' } }],
        result: { value: 'hello, stranger' },
      },
    ]);
    expect(acme.action_types).toEqual([
      expect.objectContaining({
        api_name: 'promoteEmployee',
        parameters: { employee: { type: 'object', objectTypeApiName: 'Employee' }, newTitle: 'string' },
        edits: [{ modify: 'Employee', primary_key: '$employee', set: { title: '$newTitle' } }],
      }),
    ]);

    const second = await roundTrip(first);
    expect(await exportJson(second.app)).toEqual(first);
    const token2 = await mintToken(second.app, 'dev', SCOPES);
    const one = await second.app.inject({ url: '/api/v2/ontologies/acme/objects/Employee/1', headers: bearer(token2) });
    expect(one.json()).toMatchObject({ title: 'Director', __primaryKey: 1 });
  });

  it('every data type, every edit kind and runtime changes: the typed routes of both apps answer the same', async () => {
    const { app } = await buildTestApp({ seed: ACME_SEED });
    const token = await mintToken(app, 'dev', SCOPES);
    await apply(app, token, 'hireEmployee', { employeeId: 6, fullName: 'Fay Fox', office: 'sfo' }); // create + fk
    await apply(app, token, 'assignMentor', { employee: 6, mentor: 2 }); // add pair
    await apply(app, token, 'moveEmployee', { employee: 3, office: 'nyc' }); // fk changed
    await apply(app, token, 'promoteEmployee', { employee: 2, newTitle: 'Lead' }); // modify
    await apply(app, token, 'fireEmployee', { employee: 4 }); // delete: its pair [4, 3] now names no object
    const put = await app.inject({ method: 'PUT', url: '/_emulate/platform/ontologies/acme/objects/Office/par', payload: { name: 'Paris', capacity: 12 } });
    expect(put.statusCode, put.body).toBe(200);
    const del = await app.inject({ method: 'DELETE', url: '/_emulate/platform/ontologies/acme/objects/Employee/5' });
    expect(del.statusCode, del.body).toBe(200);
    await app.inject({ method: 'PUT', url: '/_emulate/platform/ontologies/acme/queries/greet', payload: { result: { value: 'hi there' } } });
    await app.inject({ method: 'PUT', url: '/_emulate/platform/ontologies/acme/queries/later', payload: { result: { value: [1, 2] } } });

    const first = await exportJson(app);
    const acme = (first.platform.ontologies as Array<Record<string, unknown>>)[0]!;
    const mentors = (acme.object_types as Array<{ links: Array<{ api_name: string; pairs?: unknown }> }>)[0]!.links.find((l) => l.api_name === 'mentors');
    expect(mentors?.pairs).toEqual([
      [2, 1],
      [3, 1],
      [3, 2],
      [6, 2],
    ]); // [4, 3] left out: Employee 4 is gone
    const employees = (acme.objects as Record<string, Array<Record<string, unknown>>>).Employee!;
    expect(employees.map((e) => e.employeeId)).toEqual([1, 2, 3, 6]);

    // The document says what it left out; the state started from it has nothing left to leave out.
    expect(first.leftOut).toEqual(['acme: pair [4, 3] of Employee.mentors names an object that no longer exists']);
    const second = await roundTrip(first);
    const { leftOut: _said, ...whole } = first;
    expect(await exportJson(second.app)).toEqual(whole);
    const token2 = await mintToken(second.app, 'dev', SCOPES);
    const before = await observed(app, token);
    expect(before['later {}']).toEqual([200, { value: [1, 2] }]);
    expect(before['greet {"name":"Ann"}']).toEqual([200, { value: 'hi there' }]);
    expect(before['greet {"name":"Zoe"}']).toEqual([200, { value: 'hello Zoe' }]);
    expect(before['Employee 6 mentors']).toEqual(['2']);
    expect(await observed(second.app, token2)).toEqual(before);
  });

  it('leaves out a pair that names a deleted object, and logs one warning saying so', async () => {
    const log = captureLog();
    const { app } = await buildTestApp({ seed: ACME_SEED, logLevel: 'warn', logDestination: log });
    await apply(app, await mintToken(app, 'dev', SCOPES), 'fireEmployee', { employee: 4 });
    await exportJson(app);
    const warnings = log.parsed().filter((l) => l.msg === 'state export left things out of the document (each line of `dropped` says what and why)');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ count: 1, dropped: ['acme: pair [4, 3] of Employee.mentors names an object that no longer exists'] });
  });

  it('the YAML export loads to the same state as the JSON one', async () => {
    const { app } = await buildTestApp({ seed: ACME_SEED });
    const yaml = await app.inject({ url: '/_emulate/platform/state?format=yaml' });
    const fromYaml = await buildTestApp({ seed: yaml.body });
    expect(await exportJson(fromYaml.app)).toEqual(await exportJson(app));
    expect(parse(yaml.body)).toEqual(await exportJson(app));
  });

  it('--import replaces an ontology whole, matched by api_name or by rid', () => {
    const base = validateTestSeed(
      parse(`
platform:
  ontologies:
    - { api_name: acme, display_name: Old, queries: [{ api_name: a, result: 1 }] }
    - { api_name: other, display_name: Other, rid: ri.ontology.main.ontology.x }
    - { api_name: kept, display_name: Kept }
`),
    );
    const imported = validateTestSeed(
      parse(`
platform:
  ontologies:
    - { api_name: acme, display_name: New, queries: [{ api_name: b, result: 2 }] }
    - { api_name: renamed, display_name: Renamed, rid: ri.ontology.main.ontology.x }
`),
    );
    const merged = mergeTestSeeds(base, imported);
    expect(
      merged.ontologies.map((o: { api_name: string; display_name: string; queries: Array<{ api_name: string }> }) => [
        o.api_name,
        o.display_name,
        o.queries.map((q: { api_name: string }) => q.api_name),
      ]),
    ).toEqual([
      ['acme', 'New', ['b']],
      ['renamed', 'Renamed', []],
      ['kept', 'Kept', []],
    ]);
  });
});
