// docs/contracts.md §1, issue 10 item 9: a validation failure reports at most 10 problems, its answer is never larger
// than 16 KiB, and it never echoes every key sent (a 500 KB body got a 6.9 MB answer).
import { describe, expect, it } from 'vitest';
import { buildTestApp, platformError } from '../helpers/app.js';
import { RUNTIMES, oauthError } from '../compute-modules/helpers.js';

const MINT = '/_emulate/platform/tokens';
const json = { 'content-type': 'application/json' };
const KIB16 = 16 * 1024;

/** `count` keys `k0`, `k1`, ... beside `base`, as JSON text. */
function manyKeys(base: Record<string, unknown>, count: number, prefix = 'extra-key-'): string {
  const extra = Array.from({ length: count }, (_, i) => `"${prefix}${i}":1`).join(',');
  return `${JSON.stringify(base).slice(0, -1)},${extra}}`;
}

const problemsIn = (description: string) => description.match(/body[^ ]* must /g)?.length ?? 0;

describe('validation failures', () => {
  it('a body with 40,000 unknown keys: at most 10 problems, under 16 KiB, no key list', async () => {
    const { app } = await buildTestApp();
    const payload = manyKeys({ username: 'admin' }, 40_000);
    expect(payload.length).toBeGreaterThan(500_000);
    const res = await app.inject({ method: 'POST', url: MINT, headers: json, payload });
    expect(res.statusCode).toBe(400);
    expect(res.body.length).toBeLessThanOrEqual(KIB16);
    const err = platformError(res.json());
    expect(problemsIn(err.errorDescription)).toBeLessThanOrEqual(10);
    expect(err.errorDescription).toMatch(/and 39990 more problems/);
    expect(res.body).not.toContain('extra-key-1000');
  });

  it('an array of 60,000 wrong items: at most 10 problems', async () => {
    const { app } = await buildTestApp();
    const payload = JSON.stringify({ username: 'admin', scopes: Array.from({ length: 60_000 }, () => 1) });
    const res = await app.inject({ method: 'POST', url: MINT, headers: json, payload });
    expect(res.statusCode).toBe(400);
    expect(res.body.length).toBeLessThanOrEqual(KIB16);
    const err = platformError(res.json());
    expect(problemsIn(err.errorDescription)).toBe(10);
    expect(err.errorDescription.startsWith('Invalid request body: body/scopes/0 must be string, body/scopes/1 must be string')).toBe(true);
  });

  it('a key of 600 KB is cut in the description and in the field it names', async () => {
    const { app } = await buildTestApp();
    const key = 'k'.repeat(600_000);
    const res = await app.inject({ method: 'POST', url: MINT, headers: json, payload: `{"username":"admin","scopes":{"${key}":1}}` });
    expect(res.statusCode).toBe(400);
    expect(res.body.length).toBeLessThanOrEqual(KIB16);
    const extra = await app.inject({ method: 'POST', url: MINT, headers: json, payload: `{"username":"admin","${key}":1}` });
    expect(extra.statusCode).toBe(400);
    expect(extra.body.length).toBeLessThanOrEqual(KIB16);
    expect(String(platformError(extra.json()).parameters.field).length).toBeLessThanOrEqual(300);
  });

  it('in the OAuth envelope too', async () => {
    const { app } = await buildTestApp();
    const res = await app.inject({ method: 'POST', url: RUNTIMES, headers: json, payload: manyKeys({ runtimeId: 'rt' }, 40_000) });
    expect(res.body.length).toBeLessThanOrEqual(KIB16);
    const err = oauthError(res, 400, 'invalid_request');
    expect(problemsIn(err.error_description)).toBeLessThanOrEqual(10);
  });

  it('keeps a single problem as it was', async () => {
    const { app } = await buildTestApp();
    const res = await app.inject({ method: 'POST', url: MINT, headers: json, payload: '{"username": 5}' });
    expect(platformError(res.json()).errorDescription).toBe('Invalid request body: body/username must be string');
  });
});

describe('any error answer', () => {
  it('stays under 16 KiB when a parameter carries a long value the client sent', async () => {
    const { app } = await buildTestApp();
    const res = await app.inject({ method: 'POST', url: MINT, headers: json, payload: JSON.stringify({ username: 'u'.repeat(500_000) }) });
    expect(res.statusCode).toBe(404);
    expect(res.body.length).toBeLessThanOrEqual(KIB16);
    expect(platformError(res.json()).errorName).toBe('UserNotFound');
  });
});
