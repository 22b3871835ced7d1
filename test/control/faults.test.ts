// One-shot faults (docs/contracts.md §7): armed for a method and path pattern, for N requests, then gone.
import { describe, expect, it } from 'vitest';
import { bearer, buildTestApp, mintToken, platformError } from '../helpers/app.js';
import { FORM, TOKEN } from '../oauth/flow.js';

const arm = (app: Awaited<ReturnType<typeof buildTestApp>>['app'], body: object) =>
  app.inject({ method: 'POST', url: '/_emulate/platform/faults', payload: body });

describe('faults', () => {
  it("answers the armed status for N matching requests in the route family's envelope, then serves normally", async () => {
    const { app } = await buildTestApp();
    const token = await mintToken(app, 'admin', ['api:admin-read']);
    const armed = await arm(app, { method: 'GET', path: '/api/v2/admin/**', status: 503, times: 2 });
    expect(armed.statusCode).toBe(200);
    expect(armed.json()).toMatchObject({ id: expect.any(Number), method: 'GET', path: '/api/v2/admin/**', status: 503, times: 2, remaining: 2 });
    const url = '/api/v2/admin/users/getCurrent';
    for (let i = 0; i < 2; i++) {
      const res = await app.inject({ url, headers: bearer(token) });
      expect(res.statusCode).toBe(503);
      expect(platformError(res.json()).errorName).toBe('InjectedFault');
    }
    expect((await app.inject({ url, headers: bearer(token) })).statusCode).toBe(200);
    expect((await app.inject({ url: '/_emulate/platform/faults' })).json()).toEqual({ faults: [] });
    const journal = app.journal.list({ path: url });
    expect(journal.map((e) => e.status)).toEqual([200, 503, 503]);
    expect(journal[1]!.reason).toMatch(
      /^Injected fault #\d+ \(GET \/api\/v2\/admin\/\*\*, armed through \/_emulate\/platform\/faults\): answered 503; 0 more to come\.$/,
    );
  });

  it('sends the armed body and headers; an OAuth route gets the OAuth envelope by default', async () => {
    const { app } = await buildTestApp();
    await arm(app, { path: '/api/v2/ontologies', status: 429, body: { custom: true }, headers: { 'retry-after': '1' } });
    const custom = await app.inject({ url: '/api/v2/ontologies' });
    expect([custom.statusCode, custom.json(), custom.headers['retry-after']]).toEqual([429, { custom: true }, '1']);
    await arm(app, { method: 'post', path: TOKEN, status: 500 });
    const oauth = await app.inject({ method: 'POST', url: TOKEN, headers: FORM, payload: 'grant_type=client_credentials&client_id=x' });
    expect([oauth.statusCode, oauth.json().error]).toEqual([500, 'server_error']);
    await arm(app, { path: '/api/v2/x', status: 502, body: 'plain words' });
    const text = await app.inject({ url: '/api/v2/x' });
    expect([text.statusCode, text.body, text.headers['content-type']]).toEqual([502, 'plain words', 'text/plain; charset=utf-8']);
  });

  it('delays a request without changing its answer, and matches * within one segment only', async () => {
    const { app } = await buildTestApp();
    await arm(app, { path: '/api/v2/*/thing', delayMs: 30, times: 5 });
    const started = performance.now();
    const res = await app.inject({ url: '/api/v2/a/thing' });
    expect(res.statusCode).toBe(404);
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
    await app.inject({ url: '/api/v2/a/b/thing' });
    expect((await app.inject({ url: '/_emulate/platform/faults' })).json().faults[0].remaining).toBe(4);
  });

  it('never faults the control routes, lists, clears one or all, and is cleared by a reset', async () => {
    const { app } = await buildTestApp();
    const first = (await arm(app, { path: '/**', status: 500, times: 100 })).json();
    await arm(app, { path: '/api/**', status: 500 });
    expect((await app.inject({ url: '/_emulate/platform/faults' })).json().faults).toHaveLength(2);
    expect((await app.inject({ method: 'DELETE', url: `/_emulate/platform/faults/${first.id}` })).json()).toEqual({ cleared: 1 });
    expect((await app.inject({ method: 'DELETE', url: `/_emulate/platform/faults/${first.id}` })).statusCode).toBe(404);
    expect((await app.inject({ method: 'DELETE', url: '/_emulate/platform/faults' })).json()).toEqual({ cleared: 1 });
    await arm(app, { path: '/**', status: 500 });
    await app.inject({ method: 'POST', url: '/_emulate/platform/reset' });
    expect((await app.inject({ url: '/_emulate/platform/faults' })).json()).toEqual({ faults: [] });
  });

  it('refuses a fault with neither status nor delay, or a bad pattern, with a reason', async () => {
    const { app } = await buildTestApp();
    const none = await arm(app, { path: '/api/v2/x' });
    expect(none.statusCode).toBe(400);
    expect(app.journal.list({ limit: 1 })[0]!.reason).toBe('The fault armed neither a status nor a delayMs; expected at least one of them.');
    expect((await arm(app, { path: 'no-slash', status: 500 })).statusCode).toBe(400);
    expect((await arm(app, { path: '/x', status: 500, times: 0 })).statusCode).toBe(400);
  });
});
