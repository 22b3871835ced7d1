// Runtime control of ontology objects (docs/contracts.md §7): upsert by primary key and delete, checked as the seed
// checks objects, errors in the platform envelope naming the field; the typed routes see the change; a reset
// goes back to the seed. Also setQueryResult on a typed query with cases (it sets the default result) and on
// a query not seeded, and the startEmulator() helpers.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { bearer, buildTestApp, mintToken } from '../helpers/app.js';
import { ACME_SEED } from '../ontologies/fixture.js';
import { startEmulator, EmulatorControlError, type Emulator } from '../../src/index.js';

const OBJECTS = '/_emulate/platform/ontologies/acme/objects';
let app: FastifyInstance;
let token: string;

beforeEach(async () => {
  ({ app } = await buildTestApp({ seed: ACME_SEED }));
  token = await mintToken(app, 'dev', ['api:ontologies-read']);
});

const put = (path: string, payload: unknown) => app.inject({ method: 'PUT', url: `${OBJECTS}/${path}`, payload: payload as object });
const read = async (url: string) => app.inject({ url: `/api/v2/ontologies/acme/${url}`, headers: bearer(token) });
const linked = async (url: string) => ((await read(url)).json().data as Array<{ __primaryKey: unknown }>).map((o) => o.__primaryKey);

describe('PUT and DELETE /_emulate/platform/ontologies/{ontology}/objects/{type}/{pk}', () => {
  it('creates an object the typed routes then answer, with its links', async () => {
    const res = await put('Employee/7', { fullName: 'Gus Green', officeId: 'sfo', hiredOn: '2024-02-29', skills: ['go'], address: { city: 'SF' }, bio: null });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      created: true,
      ontology: 'acme',
      objectType: 'Employee',
      primaryKey: 7,
      object: { employeeId: 7, fullName: 'Gus Green', officeId: 'sfo', hiredOn: '2024-02-29', skills: ['go'], address: { city: 'SF' } },
    });
    const got = await read('objects/Employee/7');
    expect(got.json()).toMatchObject({ __primaryKey: 7, __title: 'Gus Green', officeId: 'sfo', skills: ['go'] });
    expect(got.json()).not.toHaveProperty('bio');
    expect(await linked('objects/Office/sfo/links/occupants')).toEqual([7]);
    expect((await read('objects/Employee')).json().data.at(-1).__primaryKey).toBe(7);
  });

  it('replaces every value of an object that exists and keeps its place', async () => {
    const res = await put('Employee/2', { fullName: 'Bob B.', employeeId: 2 });
    expect(res.json()).toMatchObject({ created: false, object: { employeeId: 2, fullName: 'Bob B.' } });
    const got = (await read('objects/Employee/2')).json();
    expect(got.fullName).toBe('Bob B.');
    expect(got).not.toHaveProperty('title'); // absent from the body: gone
    expect(((await read('objects/Employee')).json().data as Array<{ __primaryKey: number }>).map((o) => o.__primaryKey)).toEqual([1, 2, 3, 4, 5]);
    expect(await linked('objects/Office/nyc/links/occupants')).toEqual([1]); // Bob no longer holds officeId nyc
  });

  it('refuses what the seed would refuse, naming the field, and changes nothing', async () => {
    const cases: Array<[string, unknown, string, RegExp]> = [
      ['Employee/8', { nope: 1 }, 'body.nope', /not a property of Employee \(properties: employeeId, fullName/],
      ['Employee/8', { hiredOn: '2023-02-30' }, 'body.hiredOn', /must be a date YYYY-MM-DD/],
      ['Employee/8', { level: 70000 }, 'body.level', /integer of type short/],
      ['Employee/8', { officeId: 'tokyo' }, 'body.officeId', /no Office with primary key "tokyo" \(the link office needs one\)/],
      ['Employee/8', { employeeId: 9 }, 'body.employeeId', /the primary key is the path's \(8\)/],
      ['Employee/3000000000', {}, 'primaryKey', /integer of type integer/],
      ['Employee/08', {}, 'primaryKey', /"08" is not a primary key of Employee \(employeeId is integer\)/],
    ];
    for (const [path, body, field, description] of cases) {
      const res = await put(path, body);
      expect(res.statusCode, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(res.json()).toMatchObject({ errorCode: 'INVALID_ARGUMENT', errorName: 'InvalidArgument', parameters: { field } });
      expect(res.json().errorDescription).toMatch(description);
    }
    expect((await read('objects/Employee/8')).statusCode).toBe(404);
    expect((await put('Nope/1', {})).json()).toMatchObject({ errorName: 'ObjectTypeNotFound', parameters: { objectType: 'Nope' } });
    const noOntology = await app.inject({ method: 'PUT', url: '/_emulate/platform/ontologies/zzz/objects/Employee/1', payload: {} });
    expect(noOntology.json()).toMatchObject({ errorName: 'OntologyNotFound', parameters: { apiName: 'zzz' } });
    const notObject = await app.inject({ method: 'PUT', url: `${OBJECTS}/Employee/8`, payload: [1] });
    expect(notObject.statusCode).toBe(400);
  });

  it('deletes an object with its pairs; refuses while a foreign key names it; 404 when absent', async () => {
    expect(await linked('objects/Employee/1/links/mentees')).toEqual([2, 3]);
    const del = await app.inject({ method: 'DELETE', url: `${OBJECTS}/Employee/2` });
    expect(del.json()).toEqual({ deleted: true, ontology: 'acme', objectType: 'Employee', primaryKey: 2 });
    expect((await read('objects/Employee/2')).statusCode).toBe(404);
    expect(await linked('objects/Employee/1/links/mentees')).toEqual([3]);
    expect(await linked('objects/Employee/3/links/mentors')).toEqual([1]);
    // A new Employee 2 has no pairs left over from the old one.
    await put('Employee/2', { fullName: 'New Bob' });
    expect(await linked('objects/Employee/2/links/mentors')).toEqual([]);
    expect(await linked('objects/Employee/3/links/mentors')).toEqual([1]);

    const referenced = await app.inject({ method: 'DELETE', url: `${OBJECTS}/Office/ldn` });
    expect(referenced.statusCode).toBe(409);
    expect(referenced.json()).toMatchObject({
      errorCode: 'CONFLICT',
      errorName: 'ObjectReferenced',
      parameters: { objectType: 'Office', primaryKey: 'ldn', referencedBy: ['Employee 3.officeId', 'Employee 4.officeId'] },
    });
    expect((await read('objects/Office/ldn')).statusCode).toBe(200);
    const missing = await app.inject({ method: 'DELETE', url: `${OBJECTS}/Employee/99` });
    expect(missing.json()).toMatchObject({ errorName: 'ObjectNotFound', parameters: { objectType: 'Employee', primaryKey: 99 } });
    const journal = (await app.inject({ url: '/_emulate/platform/journal?refusals=true' })).json().entries as Array<{ reason: string }>;
    expect(journal[0]!.reason).toBe('No Employee has the primary key "99" in ontology acme.');
    expect(journal[1]!.reason).toMatch(
      /^Office ldn is named by the foreign key of Employee 3\.officeId, Employee 4\.officeId; change or delete those objects first\.$/,
    );
  });

  it('a reset returns the objects to the seed', async () => {
    await put('Office/par', { name: 'Paris' });
    await app.inject({ method: 'DELETE', url: `${OBJECTS}/Employee/5` });
    await app.inject({ method: 'POST', url: '/_emulate/platform/reset' });
    token = await mintToken(app, 'dev', ['api:ontologies-read']);
    expect((await read('objects/Office/par')).statusCode).toBe(404);
    expect((await read('objects/Employee/5')).statusCode).toBe(200);
  });
});

describe('setQueryResult on typed queries', () => {
  const execute = async (query: string, parameters: Record<string, unknown>) =>
    (await app.inject({ method: 'POST', url: `/api/v2/ontologies/acme/queries/${query}/execute`, headers: bearer(token), payload: { parameters } })).json();

  it('sets the default result of a query with cases; the cases still answer; parameters are still checked', async () => {
    const res = await app.inject({ method: 'PUT', url: '/_emulate/platform/ontologies/acme/queries/greet', payload: { result: { value: 'hey' } } });
    expect(res.json()).toMatchObject({ created: false });
    expect(await execute('greet', { name: 'Ann' })).toEqual({ value: 'hey' });
    expect(await execute('greet', { name: 'Zoe' })).toEqual({ value: 'hello Zoe' });
    expect(await execute('greet', { name: 5 })).toMatchObject({ errorName: 'InvalidParameterValue' });
  });

  it('adds a query that was not seeded, which then executes (untyped) and shows in the metadata', async () => {
    const res = await app.inject({ method: 'PUT', url: '/_emulate/platform/ontologies/acme/queries/fresh', payload: { result: { value: 3 } } });
    expect(res.json()).toMatchObject({ created: true });
    expect(await execute('fresh', { anything: 1 })).toEqual({ value: 3 });
    expect((await read('queryTypes/fresh')).statusCode).toBe(200);
  });
});

describe('startEmulator putObject / deleteObject', () => {
  let emulator: Emulator | undefined;
  afterEach(async () => {
    await emulator?.close();
    emulator = undefined;
  });

  it('upserts and deletes through the control routes; a refusal throws EmulatorControlError', async () => {
    emulator = await startEmulator({ seed: ACME_SEED });
    expect(await emulator.putObject('acme', 'Office', 'par', { name: 'Paris' })).toEqual({ created: true, object: { officeId: 'par', name: 'Paris' } });
    expect((await emulator.putObject('ri.ontology.main.ontology.acme', 'Office', 'par', { name: 'Paree', capacity: 3 })).created).toBe(false);
    const t = await emulator.mintToken('dev', ['api:ontologies-read']);
    const office = await fetch(`${emulator.url}/api/v2/ontologies/acme/objects/Office/par`, { headers: { authorization: `Bearer ${t}` } });
    expect(await office.json()).toMatchObject({ name: 'Paree', capacity: 3 });
    await emulator.deleteObject('acme', 'Office', 'par');
    const err = await emulator.deleteObject('acme', 'Office', 'par').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EmulatorControlError);
    expect((err as EmulatorControlError).status).toBe(404);
    await expect(emulator.putObject('acme', 'Employee', 9, { salary: 'lots' })).rejects.toThrow(/body\.salary: must be a number/);
    const doc = await emulator.exportState();
    expect(JSON.stringify(doc)).not.toContain('Paree');
  });
});
