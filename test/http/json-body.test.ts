import { describe, expect, it } from 'vitest';
import { buildTestApp, platformError } from '../helpers/app.js';

const url = '/_emulate/platform/tokens';
const json = { 'content-type': 'application/json' };

describe('JSON bodies', () => {
  it('answers malformed and empty JSON with 400 InvalidArgument on a connection that stays open', async () => {
    const { app } = await buildTestApp();
    for (const payload of ['{"username": "admin", "scopes": [', '', '{"__proto__": {"x": 1}}']) {
      const res = await app.inject({ method: 'POST', url, headers: json, payload });
      expect(res.statusCode).toBe(400);
      expect(platformError(res.json()).errorName).toBe('InvalidArgument');
      expect(res.headers.connection).not.toBe('close');
    }
  });

  it('still parses good JSON, with a charset, for routes that validate it', async () => {
    const { app } = await buildTestApp();
    const res = await app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json; charset=utf-8' }, payload: '{"username":"admin","scopes":[]}' });
    expect(res.statusCode).toBe(200);
  });

  it('closes the connection after a body too large to have been read to its end', async () => {
    const { app } = await buildTestApp();
    const res = await app.inject({ method: 'POST', url, headers: json, payload: `{"username":"${'a'.repeat(2 * 1024 * 1024)}"}` });
    expect(res.statusCode).toBe(413);
    expect(platformError(res.json()).errorName).toBe('RequestEntityTooLarge');
    expect(res.headers.connection).toBe('close');
  });
});
