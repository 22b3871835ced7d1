// docs/contracts.md §1 and §8: a JSON body nested deeper than 64 levels is refused with 400 in the route's envelope,
// before anything is stored (issue 10, item 1: a 10,000-level job query was accepted and then poisoned every
// poll, inspection and schemas read with a 500).
import { describe, expect, it } from 'vitest';
import { bearer, mintToken, platformError } from '../helpers/app.js';
import { nestedDeeperThan } from '../../src/http/body-parsers.js';
import { ADDER, MUX, RUNTIME, RUNTIMES, TOKEN, harness, oauthError } from '../compute-modules/helpers.js';

/** `levels` nested arrays around `inner`, as text: `[[[...]]]`. */
const nestedArrays = (levels: number, inner = '1') => '['.repeat(levels) + inner + ']'.repeat(levels);
/** `levels` nested objects: `{"a":{"a":...}}`. */
const nestedObjects = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

const json = { 'content-type': 'application/json' };
const DEEP = 10_000;
const DEPTH_MESSAGE = /nested deeper than 64 levels/;

describe('JSON nested deeper than 64 levels', () => {
  it('is refused on the job routes (OAuth envelope) and no job is stored', async () => {
    const h = await harness({ pollTimeoutMs: 20 });
    for (const deep of [nestedArrays(DEEP), nestedObjects(DEEP)]) {
      const payload = `{"deployedAppRid":"${ADDER}","queryType":"add","query":${deep}}`;
      for (const path of ['/deployed-apps/jobs', '/compute-modules/jobs/execute']) {
        const res = await h.app.inject({ method: 'POST', url: `${MUX}${path}`, headers: { ...h.auth, ...json }, payload });
        expect(oauthError(res, 400, 'invalid_request').error_description).toMatch(DEPTH_MESSAGE);
      }
    }
    // Nothing was queued: the module's poll is held and ends empty.
    expect((await h.poll()).statusCode).toBe(204);
  });

  it('is refused on the runtime schemas route (OAuth envelope), and the schemas stay readable', async () => {
    const h = await harness({ pollTimeoutMs: 1 });
    const payload = `[{"functionName":"f","inputs":${nestedArrays(DEEP)}}]`;
    const res = await h.app.inject({ method: 'POST', url: `${RUNTIMES}/${RUNTIME}/schemas`, headers: { 'module-auth-token': TOKEN, ...json }, payload });
    expect(oauthError(res, 400, 'invalid_request').error_description).toMatch(DEPTH_MESSAGE);
    const schemas = await h.app.inject({ method: 'GET', url: `${MUX}/schemas`, headers: h.auth, query: { rid: ADDER } });
    expect(schemas.statusCode).toBeLessThan(500);
  });

  it('is refused on connection create and ontology execute (platform envelope)', async () => {
    const h = await harness();
    const token = await mintToken(h.app, 'admin', ['api:connectivity-connection-write', 'api:ontologies-read']);
    const create = await h.app.inject({
      method: 'POST',
      url: '/api/v2/connectivity/connections',
      headers: { ...bearer(token), ...json },
      payload: `{"parentFolderRid":"ri.compass.main.folder.x","displayName":"x","configuration":{"type":"rest","domains":[]},"worker":${nestedObjects(DEEP)}}`,
    });
    expect(create.statusCode).toBe(400);
    expect(platformError(create.json())).toMatchObject({ errorCode: 'INVALID_ARGUMENT', errorName: 'InvalidArgument' });
    expect(platformError(create.json()).errorDescription).toMatch(DEPTH_MESSAGE);
    const execute = await h.app.inject({
      method: 'POST',
      url: '/api/v2/ontologies/anything/queries/q/execute',
      headers: { ...bearer(token), ...json },
      payload: `{"parameters":{"x":${nestedArrays(DEEP)}}}`,
    });
    expect(execute.statusCode).toBe(400);
    expect(platformError(execute.json()).errorDescription).toMatch(DEPTH_MESSAGE);
  });

  it('is refused on control routes too, and the limit is exactly 64', async () => {
    const h = await harness();
    const mint = (scopes: string) =>
      h.app.inject({ method: 'POST', url: '/_emulate/platform/tokens', headers: json, payload: `{"username":"admin","scopes":${scopes}}` });
    // 64 levels in all (the body's object is the first): accepted as far as depth goes (then 400 for its type).
    const at64 = await mint(nestedArrays(63, '"x"'));
    expect(platformError(at64.json()).errorDescription).not.toMatch(DEPTH_MESSAGE);
    const at65 = await mint(nestedArrays(64, '"x"'));
    expect(at65.statusCode).toBe(400);
    expect(platformError(at65.json()).errorDescription).toMatch(DEPTH_MESSAGE);
  });

  it('does not count brackets inside strings, escaped quotes included', async () => {
    const h = await harness();
    const tricky = JSON.stringify({ deployedAppRid: ADDER, queryType: 'add', query: { text: `${'['.repeat(500)}\\"{{{${'{'.repeat(500)}` } });
    const res = await h.app.inject({ method: 'POST', url: `${MUX}/deployed-apps/jobs`, headers: { ...h.auth, ...json }, payload: tricky });
    expect(res.statusCode).toBe(200);
  });
});

describe('nestedDeeperThan', () => {
  it.each([
    ['[[1]]', 2, false],
    ['[[[1]]]', 2, true],
    ['{"a":[{"b":2}]}', 3, false],
    ['{"a":[{"b":{}}]}', 3, true],
    ['["[[[[", "\\\\", [[1]]]', 2, true],
    ['["\\"[[[[", 1]', 1, false],
    ['["\\\\\\"[[[", 1]', 1, false],
    ['[[], [], [[]]]', 3, false],
    ['[[], [], [[]]]', 2, true],
    ['"unterminated [[[[', 1, false],
  ])('%s deeper than %i: %s', (text, max, expected) => {
    expect(nestedDeeperThan(text, max)).toBe(expected);
  });
});
