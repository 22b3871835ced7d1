// POST /authorize/callback: CSRF and stored-request checks, then a 302 carrying the code.
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../helpers/app.js';
import { CALLBACK, authorizeUrl, expectHtmlError, pickUser, postForm, signInForm } from './flow.js';

const SEED = `
platform:
  users:
    - { username: alice }
    - { username: bot, principal_type: service }
  oauth_clients:
    - { client_id: web, redirect_uris: ["https://app.example.com/cb?keep=1&x=%20y"] }
`;
const params = { client_id: 'web', response_type: 'code', state: 'xyz' };

async function openPage(app: Awaited<ReturnType<typeof buildTestApp>>['app']) {
  return signInForm(await app.inject({ url: authorizeUrl(params) }));
}

describe('authorize callback', () => {
  it('redirects with code and state, keeping the redirect URI query exactly', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const res = await pickUser(app, params, 'alice');
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toMatch(/^https:\/\/app\.example\.com\/cb\?keep=1&x=%20y&code=[A-Za-z0-9_-]{43}&state=xyz$/);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('rejects a wrong CSRF token', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const form = await openPage(app);
    const res = await postForm(app, CALLBACK, { request_id: form.requestId, csrf_token: 'x'.repeat(43), username: 'alice' }, { cookie: form.cookie });
    expectHtmlError(res, /Sign-in rejected/);
  });

  it('rejects a form without the cookie, or from another browser', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const form = await openPage(app);
    const fields = { request_id: form.requestId, csrf_token: form.csrf, username: 'alice' };
    expectHtmlError(await postForm(app, CALLBACK, fields), /Sign-in rejected/);
    const other = await openPage(app);
    expectHtmlError(await postForm(app, CALLBACK, fields, { cookie: other.cookie }), /Sign-in rejected/);
    // The genuine one still works afterwards.
    expect((await postForm(app, CALLBACK, fields, { cookie: form.cookie })).statusCode).toBe(302);
  });

  it('accepts a form only once', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const form = await openPage(app);
    const fields = { request_id: form.requestId, csrf_token: form.csrf, username: 'alice' };
    expect((await postForm(app, CALLBACK, fields, { cookie: form.cookie })).statusCode).toBe(302);
    expectHtmlError(await postForm(app, CALLBACK, fields, { cookie: form.cookie }), /Sign-in expired/);
  });

  it('rejects an unknown request id and an incomplete form', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const form = await openPage(app);
    expectHtmlError(
      await postForm(app, CALLBACK, { request_id: 'nope', csrf_token: form.csrf, username: 'alice' }, { cookie: form.cookie }),
      /Sign-in expired/,
    );
    expectHtmlError(await postForm(app, CALLBACK, { request_id: form.requestId, csrf_token: form.csrf }, { cookie: form.cookie }), /Incomplete sign-in form/);
  });

  it('expires a page left open for 30 minutes', async () => {
    const { app, clock } = await buildTestApp({ seed: SEED });
    const form = await openPage(app);
    clock.advance(30 * 60 * 1000);
    const res = await postForm(app, CALLBACK, { request_id: form.requestId, csrf_token: form.csrf, username: 'alice' }, { cookie: form.cookie });
    expectHtmlError(res, /Sign-in expired/);
  });

  it('rejects an unknown, service or deactivated user, leaving the page usable', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const form = await openPage(app);
    const pick = (username: string) => postForm(app, CALLBACK, { request_id: form.requestId, csrf_token: form.csrf, username }, { cookie: form.cookie });
    expectHtmlError(await pick('nobody'), /Unknown user/);
    expectHtmlError(await pick('bot'), /Unknown user/);
    await app.inject({ method: 'POST', url: '/_emulate/platform/users/alice/deactivate' });
    expectHtmlError(await pick('alice'), /User deactivated/);
    expect((await pick('admin')).statusCode).toBe(302);
  });

  it('answers a repeated field, or a JSON body, with the HTML error page', async () => {
    const { app } = await buildTestApp({ seed: SEED });
    const form = await openPage(app);
    const repeated = await app.inject({
      method: 'POST',
      url: CALLBACK,
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: form.cookie },
      payload: `request_id=${form.requestId}&csrf_token=${form.csrf}&username=alice&username=admin`,
    });
    expectHtmlError(repeated, /sent more than once/);
    const json = await app.inject({ method: 'POST', url: CALLBACK, payload: { request_id: form.requestId } });
    expectHtmlError(json, /Bad request/);
  });
});
