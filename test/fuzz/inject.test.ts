// Property-based fuzzing of every route family in process (fast: app.inject): whatever the method, path,
// percent-encoding, headers, content type and body, the answer is no 5xx, no framework body or stack trace,
// the right envelope for the path's family, at most 16 KiB for an error, no body for HEAD; and afterwards the
// service is healthy and a valid request still works. `npm run fuzz` (or FUZZ_RUNS=n) runs it longer.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { bearer, buildTestApp, mintToken } from '../helpers/app.js';
import { checkAnswer } from './oracle.js';
import {
  FUZZ_MODULE_TOKEN,
  FUZZ_RUNTIME,
  FUZZ_SEED,
  MUX,
  QUIET_APP,
  RUNTIMES,
  TEMPLATES,
  body,
  contentType,
  headers,
  method,
  pathFrom,
  runs,
} from './requests.js';
import { routeTemplates } from './route-templates.js';
import { SERVICES } from '../../src/services/index.js';

let app: FastifyInstance;
let path: ReturnType<typeof pathFrom>;
let valid = '';
let gone = '';

beforeAll(async () => {
  ({ app } = await buildTestApp({ seed: FUZZ_SEED }));
  // Every route of the app's table, new services' included, beside the hand-written wildcards.
  path = pathFrom([...new Set([...TEMPLATES, ...routeTemplates(app)])]);
  // Every scope a service checks: a request fuzzed with the valid token reaches its route's own checks.
  const scopes = [...new Set(SERVICES.flatMap((s) => s.scopes ?? []))];
  valid = await mintToken(app, 'admin', scopes);
  await app.inject({ method: 'POST', url: '/_emulate/platform/users/gone/activate' });
  gone = await mintToken(app, 'gone', scopes);
  await app.inject({ method: 'POST', url: '/_emulate/platform/users/gone/deactivate' });
});
afterAll(() => app.close());

const RUNS = runs(400);

describe('fuzzing every route family through inject', () => {
  it('takes its paths from the route table, every service included', () => {
    const templates = routeTemplates(app);
    expect(templates).toEqual(expect.arrayContaining(['/api/v2/admin/users/getCurrent', '/api/v2/admin/users/*/getMarkings', '/idp/api/oauth2/token']));
    expect(templates.some((t) => t.startsWith('/api/v2/datasets/'))).toBe(true);
    expect(templates.some((t) => t.endsWith('/events'))).toBe(false);
  });

  it(`answers ${RUNS} random requests within the contract`, { timeout: Math.max(30_000, RUNS * 50) }, async () => {
    await fc.assert(
      fc.asyncProperty(
        method,
        path,
        headers(
          () => valid,
          () => gone,
        ),
        body,
        fc.option(contentType, { nil: undefined, freq: 5 }),
        async (m, url, hs, payload, type) => {
          const all = { ...hs, ...(type !== undefined ? { 'content-type': type } : {}) };
          const res = await app.inject({ method: m as 'GET', url, headers: all, ...(payload !== undefined && m !== 'GET' && m !== 'HEAD' ? { payload } : {}) });
          // inject resolves the target as a WHATWG URL does (dot segments removed): judge what the service saw.
          const seen = new URL(url.startsWith('//') ? `http://localhost${url}` : url, 'http://localhost');
          checkAnswer(m, seen.pathname + seen.search, { status: res.statusCode, headers: res.headers, body: res.body });
        },
      ),
      { numRuns: RUNS, seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined },
    );
  });

  it('is healthy afterwards, and valid requests of each family still work', async () => {
    expect((await app.inject({ url: '/_emulate/health' })).statusCode).toBe(200);
    // The fuzz may have moved the clock or deactivated users: start from the seed, as a test suite would.
    expect((await app.inject({ method: 'POST', url: '/_emulate/platform/reset' })).statusCode).toBe(200);
    const token = await mintToken(app, 'admin', ['api:admin-read']);
    expect((await app.inject({ url: '/api/v2/admin/users/getCurrent', headers: bearer(token) })).json().username).toBe('admin');
    const submitted = await app.inject({
      method: 'POST',
      url: `${MUX}/deployed-apps/jobs`,
      headers: bearer(token),
      payload: { deployedAppRid: QUIET_APP, queryType: 'add', query: { a: 1 } },
    });
    expect(submitted.statusCode).toBe(200);
    const poll = await app.inject({ url: `${RUNTIMES}/${FUZZ_RUNTIME}/job`, headers: { 'module-auth-token': FUZZ_MODULE_TOKEN } });
    const jobId = poll.json().computeModuleJobV1.jobId as string;
    expect(jobId).toBe(submitted.json().id);
    const posted = await app.inject({
      method: 'POST',
      url: `${RUNTIMES}/${FUZZ_RUNTIME}/results/${jobId}`,
      headers: { 'module-auth-token': FUZZ_MODULE_TOKEN, 'content-type': 'text/plain' },
      payload: '2',
    });
    expect(posted.statusCode).toBe(200);
    const result = await app.inject({ method: 'PUT', url: `${MUX}/jobs/result/v2`, headers: bearer(token), payload: { id: jobId } });
    expect(result.body).toBe('2');
    const form = await app.inject({
      method: 'POST',
      url: '/idp/api/oauth2/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=client_credentials&client_id=fuzz-client&client_secret=fuzz-secret-value-9f8e7d',
    });
    expect(form.statusCode).toBe(200);
  });
});
