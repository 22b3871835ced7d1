// Map-shaped bodies (name -> value) check every value whatever its key: a key with a line break once slipped
// past the schema's key pattern, so its value went unchecked and a number reached the service code (a 500).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateTestSeed } from '../helpers/seed.js';
import { bearer, buildTestApp, mintToken, platformError, type TestApp } from '../helpers/app.js';
import { SeedError } from '../../src/seed/load.js';
import { BASE, READ, SEED, WRITE, createRequest, withConfiguration } from './fixtures.js';

let t: TestApp;
let rw: Record<string, string>;
beforeAll(async () => {
  t = await buildTestApp({ seed: SEED });
  rw = bearer(await mintToken(t.app, 'alice', [READ, WRITE]));
});
afterAll(() => t.app.close());

const post = (url: string, payload: unknown) => t.app.inject({ method: 'POST', url, payload: payload as object, headers: rw });
const SEEDED = `${BASE}/ri.magritte..source.seeded`;

// Keys a naive `^(.*)$` does not match: line feed, carriage return, line and paragraph separators.
const ODD_KEYS = ['a\nb', '\n', 'a\rb', 'a\u2028b', 'a\u2029b'];

describe('updateSecrets: every value is checked, whatever its name', () => {
  it('{"a":5} is the 400 that names the field (the reference)', async () => {
    const res = await post(`${SEEDED}/updateSecrets`, { secrets: { a: 5 } });
    expect(res.statusCode).toBe(400);
    expect(platformError(res.json()).errorCode).toBe('INVALID_ARGUMENT');
  });

  it.each(ODD_KEYS)('a name %j with a non-string value is the same 400, not a 500', async (key) => {
    const res = await post(`${SEEDED}/updateSecrets`, { secrets: { [key]: 5 } });
    expect(res.statusCode).toBe(400);
    const body = platformError(res.json());
    expect(body.errorCode).toBe('INVALID_ARGUMENT');
    expect(body.errorName).toBe('InvalidArgument');
  });

  it('a name with a line break and a string value is stored like any other name', async () => {
    expect((await post(`${SEEDED}/updateSecrets`, { secrets: { 'line\nbreak': 'v' } })).statusCode).toBe(204);
    const res = await t.app.inject({ url: `${SEEDED}/getConfiguration`, headers: rw });
    expect(res.statusCode).toBe(200);
    expect(res.json().additionalSecrets.secretNames).toContain('line\nbreak');
  });
});

describe('create: additionalSecrets are checked whatever their names', () => {
  it.each(ODD_KEYS)('a name %j with a non-string value is a 400 naming the field', async (key) => {
    const body = withConfiguration((c) => {
      c.additionalSecrets = { type: 'asSecretsWithPlaintextValues', secrets: { ok: 'x', [key]: 5 } };
    });
    const res = await post(BASE, body);
    expect(res.statusCode).toBe(400);
    expect(platformError(res.json()).errorCode).toBe('INVALID_ARGUMENT');
  });

  it('a valid request still creates the connection', async () => {
    expect((await post(BASE, createRequest())).statusCode).toBe(200);
  });
});

describe('seed: user attributes are checked whatever their names', () => {
  it.each(ODD_KEYS)('an attribute named %j whose value is not a list of strings is refused with its path', (key) => {
    const doc = { platform: { users: [{ username: 'u', attributes: { [key]: 5 } }] } };
    expect(() => validateTestSeed(doc)).toThrow(SeedError);
    try {
      validateTestSeed(doc);
    } catch (err) {
      expect((err as SeedError).problems.join('\n')).toContain('platform.users[0].attributes');
    }
  });

  it('an attribute named with a line break holding a list of strings is accepted', () => {
    const seed = validateTestSeed({ platform: { users: [{ username: 'u', attributes: { 'a\nb': ['x'] } }] } });
    expect(seed.users[0]!.attributes).toEqual({ 'a\nb': ['x'] });
  });
});

describe('query execute: parameters named with a line break', () => {
  it('are accepted as any other parameter name, never a 500', async () => {
    const app = await buildTestApp({
      seed: 'platform:\n  users: [{ username: alice }]\n  ontologies: [{ api_name: o, display_name: O, queries: [{ api_name: q, result: 1 }] }]\n',
    });
    try {
      const token = bearer(await mintToken(app.app, 'alice', ['api:ontologies-read']));
      const res = await app.app.inject({
        method: 'POST',
        url: '/api/v2/ontologies/o/queries/q/execute',
        payload: { parameters: { 'a\nb': 5 } },
        headers: token,
      });
      expect(res.statusCode).toBe(200);
    } finally {
      await app.app.close();
    }
  });
});
