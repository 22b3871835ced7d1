// A wrong method with an empty JSON body (issue 25): routed first, so it answers the 404 any wrong method gets, in
// the family's envelope, not a 400 about the body of a request no route takes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';

const MUX = '/analytics-backend-multiplexer/api/module-group-multiplexer';
let t: TestApp;
beforeAll(async () => (t = await buildTestApp()));
afterAll(() => t.app.close());

describe('a wrong method with an empty JSON body', () => {
  it.each([
    ['PUT', `${MUX}/deployed-apps/jobs`],
    ['PATCH', `${MUX}/compute-modules/jobs/execute`],
    ['POST', `${MUX}/jobs/result/v2`],
    ['PATCH', '/idp/api/oauth2/token'],
    ['PUT', '/_emulate/platform/compute-modules/runtimes'],
  ])('%s %s answers 404 in the OAuth envelope', async (method, url) => {
    for (const payload of ['', undefined]) {
      const res = await t.app.inject({ method: method as 'PUT', url, headers: { 'content-type': 'application/json' }, payload });
      expect({ status: res.statusCode, body: res.json() }).toEqual({
        status: 404,
        body: { error: 'not_found', error_description: expect.stringContaining(`No route ${method}`) },
      });
    }
  });

  it('answers 404 in the platform envelope under /api/v2', async () => {
    const res = await t.app.inject({ method: 'PATCH', url: '/api/v2/ontologies', headers: { 'content-type': 'application/json' }, payload: '' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ errorCode: 'NOT_FOUND', errorName: 'NotFound' });
  });

  it('still refuses an empty JSON body on a route that takes one', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${MUX}/deployed-apps/jobs`,
      headers: { 'content-type': 'application/json', authorization: 'Bearer x' },
      payload: '',
    });
    expect(res.statusCode).not.toBe(404);
  });
});
