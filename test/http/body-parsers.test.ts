// Bad bodies are answered as before the stackless parsers: same statuses, envelopes and descriptions, per
// route family; and the errors behind them carry no stack.
import { describe, expect, it } from 'vitest';
import { buildTestApp, platformError } from '../helpers/app.js';
import { EmulatorError, invalidRequest, PlatformError, withoutStack } from '../../src/errors.js';

const MINT = '/_emulate/platform/tokens';
const json = { 'content-type': 'application/json' };

describe('JSON bodies on platform routes', () => {
  it.each([
    ['{"username": "admin", "scopes": [', 'The request body is not valid JSON.'],
    ['  [1, 2 ', 'The request body is not valid JSON.'],
    ['{"username": "admin"} x', 'The request body is not valid JSON.'],
    ['{"username": admin}', 'The request body is not valid JSON.'],
    ['{', 'The request body is not valid JSON.'],
    ['', 'The request body is empty but the content type is JSON.'],
  ])('%j is 400 InvalidArgument: %s', async (payload, description) => {
    const { app } = await buildTestApp();
    const res = await app.inject({ method: 'POST', url: MINT, headers: json, payload });
    expect(res.statusCode).toBe(400);
    expect(platformError(res.json())).toMatchObject({ errorName: 'InvalidArgument', errorDescription: description });
  });

  it('parses a good body with surrounding whitespace, and refuses prototype poisoning', async () => {
    const { app } = await buildTestApp();
    const good = await app.inject({ method: 'POST', url: MINT, headers: json, payload: ' \n{"username": "admin", "scopes": ["api:admin-read"]}\r\n ' });
    expect(good.statusCode).toBe(200);
    const poisoned = await app.inject({ method: 'POST', url: MINT, headers: json, payload: '{"username": "admin", "__proto__": {"x": 1}}' });
    expect(poisoned.statusCode).toBe(400);
  });

  it('names the field of a schema failure, with the framework message', async () => {
    const { app } = await buildTestApp();
    const res = await app.inject({ method: 'POST', url: MINT, headers: json, payload: '{"username": 5}' });
    expect(res.statusCode).toBe(400);
    expect(platformError(res.json())).toMatchObject({
      errorName: 'InvalidArgument',
      errorDescription: 'Invalid request body: body/username must be string',
    });
    // The field alone: the description already says what is wrong with it.
    expect(platformError(res.json()).parameters).toEqual({ field: 'username' });
  });

  it('answers a media type no route reads as 400 InvalidArgument, and an unknown route as 404 whatever the body', async () => {
    const { app } = await buildTestApp();
    const xml = await app.inject({ method: 'POST', url: MINT, headers: { 'content-type': 'application/xml' }, payload: '<a/>' });
    expect(xml.statusCode).toBe(400);
    expect(platformError(xml.json())).toMatchObject({ errorName: 'InvalidArgument', errorDescription: 'Unsupported content type.' });
    const unknown = await app.inject({ method: 'POST', url: '/api/v2/nothing', headers: { 'content-type': 'application/xml' }, payload: '<a/>' });
    expect(unknown.statusCode).toBe(404);
    expect(platformError(unknown.json()).errorName).toBe('NotFound');
  });
});

describe('bodies on OAuth routes', () => {
  it('answers JSON at the token endpoint and bad percent escapes in its form as invalid_request or unsupported_grant_type', async () => {
    const { app } = await buildTestApp();
    const asJson = await app.inject({ method: 'POST', url: '/idp/api/oauth2/token', headers: json, payload: '{"grant_type": "client_credentials"}' });
    expect(asJson.statusCode).toBe(400);
    expect(asJson.json()).toMatchObject({ error: 'invalid_request', error_description: 'Unsupported content type.' });
    const badEscapes = await app.inject({
      method: 'POST',
      url: '/idp/api/oauth2/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=%E0%A4%A&scope=%',
    });
    expect(badEscapes.statusCode).toBe(400);
    expect(badEscapes.json().error).toBe('unsupported_grant_type');
  });
});

describe('errors that are answers', () => {
  it('are Errors of their class with a message and no stack', () => {
    const err = invalidRequest('nope');
    expect(err).toBeInstanceOf(Error);
    expect(err).toBeInstanceOf(EmulatorError);
    expect(err.name).toBe('OAuthError');
    expect(err.message).toBe('invalid_request: nope');
    expect(err.stack).toBeUndefined();
    expect(String(new PlatformError('NOT_FOUND', 'NotFound'))).toBe('PlatformError: NOT_FOUND NotFound');
  });

  it('withoutStack builds without a stack and restores the limit, even when the builder throws', () => {
    const before = Error.stackTraceLimit;
    expect(withoutStack(() => new Error('x')).stack).toBe('Error: x');
    expect(() => withoutStack(() => JSON.parse('{'))).toThrow(SyntaxError);
    expect(Error.stackTraceLimit).toBe(before);
    expect(new Error('y').stack).toContain('body-parsers.test');
  });
});
