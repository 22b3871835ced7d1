// The ontology routes' refusals explain themselves in the journal and in one log line each (DESIGN principle 11):
// ObjectNotFound, InvalidParameterValue, ActionValidationFailed, NotSupportedByEmulator, ApiUsageDenied and
// the not-found kinds name what was asked for and what there is. An action whose validation is INVALID (a
// 200, the SDK's shape) carries a note saying why.
import { describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { bearer, buildTestApp, mintToken } from '../helpers/app.js';
import { ACME_SEED } from '../ontologies/fixture.js';
import { captureLog } from './helpers.js';

type Entry = { method: string; path: string; status: number; errorCode?: string; reason?: string };

const latest = async (app: FastifyInstance): Promise<Entry> =>
  ((await app.inject({ url: '/_emulate/platform/journal?limit=1' })).json().entries as Entry[])[0]!;

describe('ontology refusals in the journal', () => {
  it('each refusal names what was asked for and what there is; the log line says the same', async () => {
    const log = captureLog();
    const { app } = await buildTestApp({ seed: ACME_SEED, logLevel: 'info', logDestination: log });
    const read = await mintToken(app, 'dev', ['api:ontologies-read']);
    const write = await mintToken(app, 'dev', ['api:ontologies-read', 'api:ontologies-write']);
    const O = '/api/v2/ontologies/acme';
    const expectations: Array<[() => Promise<unknown>, number, string, string | RegExp]> = [
      [() => app.inject({ url: `${O}/objects/Employee/99`, headers: bearer(read) }), 404, 'ObjectNotFound', 'No Employee has the primary key "99".'],
      [
        () => app.inject({ url: `${O}/objects/Employee/abc`, headers: bearer(read) }),
        404,
        'ObjectNotFound',
        '"abc" cannot be a primary key of Employee: employeeId is integer, written as a plain integer.',
      ],
      [
        () => app.inject({ url: `${O}/objects/Employe/1`, headers: bearer(read) }),
        404,
        'ObjectTypeNotFound',
        'Ontology acme has no object type "Employe"; its object types are "Employee", "Office".',
      ],
      [
        () => app.inject({ url: '/api/v2/ontologies/acmee/objects/Employee/1', headers: bearer(read) }),
        404,
        'OntologyNotFound',
        'No ontology has the api name or rid "acmee"; the ontologies are "acme".',
      ],
      [
        () => app.inject({ url: `${O}/objects/Employee/1/links/boss`, headers: bearer(read) }),
        404,
        'LinkTypeNotFound',
        'Employee has no link "boss"; its links are "office", "mentors", "mentees".',
      ],
      [
        () => app.inject({ method: 'POST', url: `${O}/queries/greet/execute`, headers: bearer(read), payload: { parameters: { name: 7 } } }),
        400,
        'InvalidParameterValue',
        'Parameter name of query greet must be a string; the request gave "7".',
      ],
      [
        () => app.inject({ method: 'POST', url: `${O}/queries/greet/execute`, headers: bearer(read), payload: { parameters: { nam: 'x' } } }),
        400,
        'UnknownParameter',
        'Query greet declares no parameter "nam"; it declares "name", "times".',
      ],
      [
        () =>
          app.inject({
            method: 'POST',
            url: `${O}/actions/promoteEmployee/apply`,
            headers: bearer(write),
            payload: { parameters: { employee: 1, newTitle: false } },
          }),
        400,
        'InvalidParameterValue',
        'Parameter newTitle of action promoteEmployee must be a string; the request gave "false".',
      ],
      [
        () =>
          app.inject({
            method: 'POST',
            url: `${O}/actions/promoteEmployee/applyBatch`,
            headers: bearer(write),
            payload: { requests: [{ parameters: { employee: 1, newTitle: 'A' } }, { parameters: { employee: 99, newTitle: 'B' } }] },
          }),
        400,
        'ActionValidationFailed',
        'Request 1 of the batch of promoteEmployee is not valid: the parameter "employee" is missing or names no object; nothing was applied.',
      ],
      [
        () =>
          app.inject({
            method: 'POST',
            url: `${O}/actions/hireEmployee/applyBatch`,
            headers: bearer(write),
            payload: { requests: [{ parameters: { employeeId: 9, fullName: 'A' } }, { parameters: { employeeId: 9, fullName: 'B' } }] },
          }),
        400,
        'ActionValidationFailed',
        'The edits of the batch of hireEmployee cannot apply together: Employee 9 already exists; nothing was applied.',
      ],
      [
        () =>
          app.inject({
            method: 'POST',
            url: `${O}/objectSets/loadObjects`,
            headers: bearer(read),
            payload: {
              objectSet: { type: 'filter', objectSet: { type: 'base', objectType: 'Employee' }, where: { type: 'regex', field: 'fullName', value: 'A.*' } },
            },
          }),
        400,
        'NotSupportedByEmulator',
        /^The emulator does not evaluate the where clause "regex"; it evaluates and, or, not, eq, in, gt, gte, lt, lte, isNull, startsWith, contains, containsAnyTerm/,
      ],
      [
        () =>
          app.inject({
            method: 'POST',
            url: `${O}/objectSets/loadObjects`,
            headers: bearer(read),
            payload: { objectSet: { type: 'interfaceBase', interfaceType: 'I' } },
          }),
        404,
        'InterfaceTypeNotFound',
        'Ontology acme has no interface "I"; its interfaces are none.',
      ],
      [
        () =>
          app.inject({
            method: 'POST',
            url: `${O}/actions/promoteEmployee/apply`,
            headers: bearer(read),
            payload: { parameters: { employee: 1, newTitle: 'A' } },
          }),
        403,
        'ApiUsageDenied',
        'This route needs the scope api:ontologies-write; the token has the scopes api:ontologies-read.',
      ],
    ];
    const reasons: string[] = [];
    for (const [send, status, code, reason] of expectations) {
      await send();
      const entry = await latest(app);
      expect([entry.status, entry.errorCode], entry.reason).toEqual([status, code]);
      expect(entry.reason).toEqual(typeof reason === 'string' ? reason : expect.stringMatching(reason));
      reasons.push(entry.reason!);
    }
    const lines = log.parsed().filter((l) => l.reason !== undefined);
    expect(lines.map((l) => [l.level, l.reason])).toEqual(reasons.map((r) => [30, r]));
  });

  it('an INVALID action validation (a 200) carries the why as a note', async () => {
    const { app } = await buildTestApp({ seed: ACME_SEED });
    const write = await mintToken(app, 'dev', ['api:ontologies-write']);
    const res = await app.inject({
      method: 'POST',
      url: '/api/v2/ontologies/acme/actions/hireEmployee/apply',
      headers: bearer(write),
      payload: { parameters: { employeeId: 1, fullName: 'Again' } },
    });
    expect(res.json().validation.result).toBe('INVALID');
    expect(await latest(app)).toMatchObject({ status: 200, reason: 'Action hireEmployee is not valid: Employee 1 already exists; nothing was changed.' });
  });
});
