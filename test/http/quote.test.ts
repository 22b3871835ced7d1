// docs/contracts.md §1: error descriptions quote an input value only when it is short (at most 64 characters, else
// cut with `…`), never a whole long value (issue 10, item 13).
import { describe, expect, it } from 'vitest';
import { quote } from '../../src/errors.js';
import { buildTestApp } from '../helpers/app.js';
import { ADDER, MUX, harness, oauthError } from '../compute-modules/helpers.js';

describe('quote', () => {
  it('quotes a short value as it is, in JSON quotes', () => {
    expect(quote('password')).toBe('"password"');
    expect(quote('a"b\nc')).toBe('"a\\"b\\nc"');
    expect(quote('x'.repeat(64))).toBe(`"${'x'.repeat(64)}"`);
  });

  it('cuts a long value to 64 characters and an ellipsis, never inside a surrogate pair', () => {
    expect(quote('x'.repeat(65))).toBe(`"${'x'.repeat(64)}…"`);
    expect(quote(`${'x'.repeat(63)}😀tail`)).toBe(`"${'x'.repeat(63)}…"`);
    expect(quote('y'.repeat(600_000)).length).toBe(67);
  });
});

describe('descriptions that quote input', () => {
  it('unsupported_grant_type repeats a short grant type, and only the start of a long one', async () => {
    const { app } = await buildTestApp();
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const short = await app.inject({ method: 'POST', url: '/idp/api/oauth2/token', headers: form, payload: 'grant_type=password' });
    expect(oauthError(short, 400, 'unsupported_grant_type').error_description).toBe('grant_type "password" is not supported.');
    // A mistyped form can carry a secret in the value: only its first 64 characters may come back.
    const secret = 'client_secret_s3cr3t-value-that-must-not-come-back';
    const long = await app.inject({ method: 'POST', url: '/idp/api/oauth2/token', headers: form, payload: `grant_type=${'g'.repeat(64)}${secret}` });
    const description = oauthError(long, 400, 'unsupported_grant_type').error_description;
    expect(description).toBe(`grant_type "${'g'.repeat(64)}…" is not supported.`);
    expect(description).not.toContain('s3cr3t');
  });

  it('the deployed-app 404 does not repeat a 600 KB rid', async () => {
    const h = await harness();
    const rid = `ri.foundry.main.deployed-app.${'z'.repeat(600_000)}`;
    const res = await h.app.inject({ method: 'POST', url: `${MUX}/deployed-apps/jobs`, headers: h.auth, payload: { deployedAppRid: rid, queryType: 'add' } });
    expect(res.statusCode).toBe(404);
    expect(res.body.length).toBeLessThan(400);
    expect(oauthError(res, 404, 'not_found').error_description).toContain('…');
    // A known app with a long branch name: the branch is cut too.
    const branch = await h.app.inject({
      method: 'POST',
      url: `${MUX}/deployed-apps/jobs`,
      headers: h.auth,
      payload: { deployedAppRid: ADDER, deployedAppBranch: 'b'.repeat(10_000), queryType: 'add' },
    });
    expect(branch.body.length).toBeLessThan(400);
  });
});
