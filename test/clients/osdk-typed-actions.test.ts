// Conformance: the typed client's executeFunction and applyAction against a live server (docs/contracts.md §9), and
// the typed errors it raises for a bad parameter and a failed validation. Each test that changes objects
// resets the server to the seed first.
import { beforeEach, describe, expect, it } from 'vitest';
import { ActionValidationError, createClient, PalantirApiError, type Client } from '@osdk/client';
import { controlToken, liveEmulator } from './conformance-helpers.js';
import { ACME_RID, ACME_SEED } from '../ontologies/fixture.js';
import { assignMentor, Employee, greet, headcount, hireEmployee, moveEmployee, Office, promoteEmployee } from './osdk-typed-definitions.js';

const url = liveEmulator(ACME_SEED);

async function client(scopes = ['api:ontologies-read', 'api:ontologies-write']): Promise<Client> {
  const token = await controlToken(url(), 'dev', scopes);
  return createClient(url(), ACME_RID, async () => token);
}

beforeEach(async () => {
  const res = await fetch(`${url()}/_emulate/platform/reset`, { method: 'POST' });
  expect(res.status).toBe(200);
});

describe('typed client: queries', () => {
  it('executeFunction answers the matching case, else the default', async () => {
    const c = await client();
    expect(await c(greet).executeFunction({ name: 'Zoe' })).toBe('hello Zoe');
    expect(await c(greet).executeFunction({ name: 'Zoe', times: 2 })).toBe('hello Zoe Zoe');
    expect(await c(greet).executeFunction({ name: 'Max' })).toBe('hello, stranger');
    expect(await c(headcount).executeFunction({ office: 'nyc' })).toBe(2);
    const ldn = await c(Office).fetchOne('ldn');
    expect(await c(headcount).executeFunction({ office: ldn })).toBe(0);
  });

  it('a bad parameter is a PalantirApiError with the SDK error type', async () => {
    const c = await client();
    const bad = await c(greet)
      .executeFunction({ name: 5 as unknown as string })
      .catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(PalantirApiError);
    expect(bad).toMatchObject({ statusCode: 400, errorName: 'InvalidParameterValue', parameters: { parameterId: 'name', parameterValue: 5 } });
    await expect(c(greet).executeFunction({} as { name: string })).rejects.toMatchObject({
      statusCode: 400,
      errorName: 'MissingParameter',
      parameters: { parameters: ['name'] },
    });
  });
});

describe('typed client: actions', () => {
  it('VALIDATE_ONLY answers the validation and changes nothing', async () => {
    const c = await client();
    const validation = await c(promoteEmployee).applyAction({ employee: 2, newTitle: 'Lead' }, { $validateOnly: true });
    expect(validation.result).toBe('VALID');
    expect(validation.parameters.employee).toMatchObject({ result: 'VALID', required: true });
    expect((await c(Employee).fetchOne(2)).title).toBe('Engineer');
  });

  it('VALIDATE_AND_EXECUTE applies the edits and returns them', async () => {
    const c = await client();
    const bob = await c(Employee).fetchOne(2);
    const edits = await c(promoteEmployee).applyAction({ employee: bob, newTitle: 'Lead' }, { $returnEdits: true });
    expect(edits).toMatchObject({ type: 'edits', modifiedObjects: [{ objectType: 'Employee', primaryKey: 2 }], addedObjects: [], deletedObjects: [] });
    expect((await c(Employee).fetchOne(2)).title).toBe('Lead');

    const hired = await c(hireEmployee).applyAction({ employeeId: 6, fullName: 'Fay Fox', office: 'sfo' }, { $returnEdits: true });
    expect(hired).toMatchObject({ addedObjects: [{ objectType: 'Employee', primaryKey: 6 }] });
    const fay = await c(Employee).fetchOne(6);
    expect((await fay.$link.office.fetchOne()).name).toBe('San Francisco');

    const linked = await c(assignMentor).applyAction({ employee: 6, mentor: 1 }, { $returnEdits: true });
    expect(linked).toMatchObject({
      addedLinks: [
        {
          linkTypeApiNameAtoB: 'mentors',
          linkTypeApiNameBtoA: 'mentees',
          aSideObject: { primaryKey: 6, objectType: 'Employee' },
          bSideObject: { primaryKey: 1, objectType: 'Employee' },
        },
      ],
    });
    expect((await (await c(Employee).fetchOne(1)).$link.mentees.fetchPage()).data.map((e) => e.employeeId)).toEqual([2, 3, 6]);

    await c(moveEmployee).applyAction({ employee: 6, office: 'nyc' });
    const nyc = await c(Office).fetchOne('nyc');
    expect((await nyc.$link.occupants.fetchPage()).data.map((e) => e.employeeId)).toEqual([1, 2, 6]);
  });

  it('a failed validation is an ActionValidationError and nothing changes', async () => {
    const c = await client();
    const taken = await c(hireEmployee)
      .applyAction({ employeeId: 1, fullName: 'Again' })
      .catch((e: unknown) => e);
    expect(taken).toBeInstanceOf(ActionValidationError);
    expect((taken as ActionValidationError).validation).toMatchObject({
      result: 'INVALID',
      submissionCriteria: [{ result: 'INVALID', configuredFailureMessage: 'Employee 1 already exists' }],
    });
    expect((await c(Employee).fetchOne(1)).fullName).toBe('Alice Adams');

    const nobody = await c(promoteEmployee)
      .applyAction({ employee: 42, newTitle: 'Ghost' })
      .catch((e: unknown) => e);
    expect(nobody).toBeInstanceOf(ActionValidationError);
    expect((nobody as ActionValidationError).validation.parameters.employee).toMatchObject({ result: 'INVALID' });
    expect((await c(promoteEmployee).applyAction({ employee: 42, newTitle: 'Ghost' }, { $validateOnly: true })).result).toBe('INVALID');
  });

  it('a parameter of the wrong type is a 400 InvalidParameterValue; the read scope alone is ApiUsageDenied', async () => {
    const c = await client();
    await expect(c(promoteEmployee).applyAction({ employee: 2, newTitle: 7 as unknown as string })).rejects.toMatchObject({
      statusCode: 400,
      errorName: 'InvalidParameterValue',
      parameters: { parameterId: 'newTitle', parameterValue: 7 },
    });
    const reader = await client(['api:ontologies-read']);
    await expect(reader(promoteEmployee).applyAction({ employee: 2, newTitle: 'x' })).rejects.toMatchObject({
      statusCode: 403,
      errorName: 'ApiUsageDenied',
      parameters: { missingScope: 'api:ontologies-write' },
    });
  });

  it('batchApplyAction applies every request together', async () => {
    const c = await client();
    await c(promoteEmployee).batchApplyAction([
      { employee: 4, newTitle: 'Senior Analyst' },
      { employee: 5, newTitle: 'Engineer' },
    ]);
    expect((await c(Employee).where({ title: 'Engineer' }).fetchPage()).data.map((e) => e.employeeId)).toEqual([2, 3, 5]);
    await expect(
      c(promoteEmployee).batchApplyAction([
        { employee: 4, newTitle: 'x' },
        { employee: 99, newTitle: 'y' },
      ]),
    ).rejects.toMatchObject({ statusCode: 400, errorName: 'ActionValidationFailed' });
    expect((await c(Employee).fetchOne(4)).title).toBe('Senior Analyst');
  });
});
