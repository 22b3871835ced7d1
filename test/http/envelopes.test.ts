// docs/contracts.md §1: every answer in its family's envelope, the family chosen on the percent-decoded path prefix,
// including the HTTP layer's own refusals (issue 10, item 10). Framing, header size and unknown methods need a
// real socket: test/http/raw-sockets.test.ts.
import { describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { buildTestApp, platformError } from '../helpers/app.js';

const OAUTH_FAMILY = ['/idp/api/oauth2/', '/_emulate/platform/compute-modules/runtimes/', '/analytics-backend-multiplexer/api/module-group-multiplexer/'];

function oauthEnvelope(res: LightMyRequestResponse): { error: string; error_description: string } {
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json();
  expect(Object.keys(body).sort()).toEqual(['error', 'error_description']);
  expect(typeof body.error_description).toBe('string');
  return body;
}

function noFrameworkBody(res: LightMyRequestResponse): void {
  expect(res.body).not.toMatch(/FST_|"statusCode"|"message":"Client Error"/);
}

describe('unknown paths and wrong methods', () => {
  it.each(
    OAUTH_FAMILY.flatMap((prefix) => [
      ['GET', `${prefix}nothing`],
      ['DELETE', `${prefix}nothing/deeper`],
    ]).concat([
      ['PUT', '/idp/api/oauth2/token'],
      ['GET', '/idp/api/oauth2/introspect'],
      ['DELETE', '/idp/api/oauth2/authorize'],
      ['PATCH', '/_emulate/platform/compute-modules/runtimes'],
    ]),
  )('%s %s is 404 not_found in the OAuth envelope', async (method, url) => {
    const { app } = await buildTestApp();
    const res = await app.inject({ method: method as 'GET', url });
    expect(res.statusCode).toBe(404);
    expect(oauthEnvelope(res).error).toBe('not_found');
    noFrameworkBody(res);
  });

  it('chooses the family on the percent-decoded prefix', async () => {
    const { app } = await buildTestApp();
    const unknown = await app.inject({ method: 'GET', url: '/%69dp/api/oauth2/nothing' });
    expect(unknown.statusCode).toBe(404);
    expect(oauthEnvelope(unknown).error).toBe('not_found');
    // The token route is reached through the encoded prefix; the framework's refusal of JSON there is OAuth's too.
    const json = await app.inject({ method: 'POST', url: '/%69dp/api/oauth2/token', headers: { 'content-type': 'application/json' }, payload: '{}' });
    expect(json.statusCode).toBe(400);
    expect(oauthEnvelope(json).error).toBe('invalid_request');
    const runtimes = await app.inject({
      method: 'POST',
      url: '/_emulate/platform/compute-modules/runtime%73',
      headers: { 'content-type': 'text/plain' },
      payload: 'x',
    });
    expect(runtimes.statusCode).toBe(400);
    expect(oauthEnvelope(runtimes).error).toBe('invalid_request');
    const platform = await app.inject({ method: 'GET', url: '/api/v2/%6Eothing' });
    expect(platform.statusCode).toBe(404);
    expect(platformError(platform.json()).errorName).toBe('NotFound');
  });

  it('keeps the platform envelope elsewhere, and cuts a long path in it', async () => {
    const { app } = await buildTestApp();
    // Many short segments: one segment over the router's limit is a 414 (below), not a 404.
    const long = `/api/v2/${'x/'.repeat(2500)}`;
    const res = await app.inject({ method: 'GET', url: long });
    expect(res.statusCode).toBe(404);
    const err = platformError(res.json());
    expect(err.errorName).toBe('NotFound');
    expect(res.body.length).toBeLessThan(2000);
  });
});

describe("the framework's own refusals", () => {
  it.each([
    ['/api/v2/%zz', 'platform'],
    ['/_emulate/platform/%E0%A4%A', 'platform'],
    ['/idp/api/oauth2/%zz', 'oauth'],
    ['/%69dp/api/oauth2/tok%zzen', 'oauth'],
    ['/analytics-backend-multiplexer/api/module-group-multiplexer/jobs/%/status', 'oauth'],
    ['/_emulate/platform/compute-modules/runtimes/%C0%AF/job', 'oauth'],
  ])('a bad percent-escape in %s is 400 in the %s envelope', async (url, family) => {
    const { app } = await buildTestApp();
    const res = await app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(400);
    noFrameworkBody(res);
    if (family === 'oauth') expect(oauthEnvelope(res).error).toBe('invalid_request');
    else expect(platformError(res.json()).errorCode).toBe('INVALID_ARGUMENT');
  });

  it('a bad percent-escape never echoes a long path', async () => {
    const { app } = await buildTestApp();
    const res = await app.inject({ method: 'GET', url: `/idp/api/oauth2/%zz${'y'.repeat(5000)}` });
    expect(res.statusCode).toBe(400);
    expect(res.body.length).toBeLessThan(1000);
  });

  it('a path parameter longer than the router takes is 414 in the family envelope', async () => {
    const { app } = await buildTestApp();
    const job = await app.inject({ method: 'GET', url: `/analytics-backend-multiplexer/api/module-group-multiplexer/jobs/${'a'.repeat(5000)}/status` });
    expect(job.statusCode).toBe(414);
    expect(oauthEnvelope(job).error).toBe('invalid_request');
    noFrameworkBody(job);
    expect(job.body.length).toBeLessThan(1000);
    const connection = await app.inject({ method: 'GET', url: `/api/v2/connectivity/connections/${'r'.repeat(5000)}` });
    expect(connection.statusCode).toBe(414);
    expect(platformError(connection.json()).errorCode).toBe('INVALID_ARGUMENT');
    noFrameworkBody(connection);
    // The same where no route has a parameter there (the catch-all that gives unknown /api/v2 paths CORS headers).
    const unknown = await app.inject({ method: 'GET', url: `/api/v2/${'x'.repeat(5000)}` });
    expect(unknown.statusCode).toBe(414);
    expect(platformError(unknown.json()).errorCode).toBe('INVALID_ARGUMENT');
  });

  it('a runtime id of 128 characters (the longest docs/contracts.md §6 allows) reaches its route', async () => {
    const { app } = await buildTestApp();
    const res = await app.inject({ method: 'GET', url: `/_emulate/platform/compute-modules/runtimes/${'r'.repeat(128)}/job` });
    expect(res.statusCode).not.toBe(414);
    expect(oauthEnvelope(res).error).not.toBe('invalid_request');
  });

  it('HEAD answers carry no body', async () => {
    const { app } = await buildTestApp();
    for (const url of ['/api/v2/%zz', '/idp/api/oauth2/nothing', `/api/v2/connectivity/connections/${'r'.repeat(5000)}`]) {
      const res = await app.inject({ method: 'HEAD', url });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.body).toBe('');
    }
  });
});
