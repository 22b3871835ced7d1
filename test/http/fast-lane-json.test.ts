// The apply fast lane (src/http/fast-lane-json.ts, src/services/ontologies/actions/lane.ts) answers a clean apply
// exactly as the route does, byte for byte and in the journal, applies it once, and leaves every other case to
// the route with its body intact and nothing changed. On a real socket: inject() never passes through the
// server's request listener. The route's own answer is had by a `charset` parameter (the lane takes exactly
// `application/json`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { mintToken } from '../helpers/app.js';
import { laneHarness, type LaneAnswer, type LaneHarness } from './lane-harness.js';
import type { ManualClock } from '../../src/clock.js';
import { ACME_SEED } from '../ontologies/fixture.js';

const ACTIONS = '/api/v2/ontologies/acme/actions';
const LANE_TYPE = 'application/json';
const ROUTE_TYPE = 'application/json; charset=utf-8';
let app: FastifyInstance;
let clock: ManualClock;
let base: string;
let lanes: LaneHarness;
let token: string;

beforeAll(async () => {
  lanes = await laneHarness(ACME_SEED);
  ({ app, clock, base } = lanes);
  token = await mintToken(app, 'dev', ['api:ontologies-read', 'api:ontologies-write']);
});
afterAll(() => app.close());

async function post(path: string, body: string, type: string, headers: Record<string, string> = { authorization: `Bearer ${token}` }): Promise<LaneAnswer> {
  return lanes.send(path, { method: 'POST', headers: { 'content-type': type, ...headers }, body });
}

/** A journal entry without what differs between any two requests. */
const comparable = (e: Record<string, unknown>) => {
  const { id: _id, time: _time, durationMs: _duration, ...rest } = e;
  return rest;
};
/** The last two journal entries, oldest first. */
const lastTwo = () => app.journal.list({}).slice(0, 2).reverse();
/** An error body without its per-answer instance id. */
const withoutInstance = (text: string) => {
  const { errorInstanceId: _id, ...rest } = JSON.parse(text) as Record<string, unknown>;
  return rest;
};
const titleOf = async (employee: number) => {
  const res = await fetch(`${base}/api/v2/ontologies/acme/objects/Employee/${employee}`, { headers: { authorization: `Bearer ${token}` } });
  return ((await res.json()) as { title?: string }).title;
};

describe('the apply fast lane', () => {
  it('answers a clean apply in every options form exactly as the route does, and applies it', async () => {
    const bodies = [
      { parameters: { employee: 1, newTitle: 'Lead' } },
      { parameters: { employee: 1, newTitle: 'Lead' }, options: { returnEdits: 'ALL' } },
      { parameters: { employee: 1, newTitle: 'Lead' }, options: { mode: 'VALIDATE_AND_EXECUTE', returnEdits: 'ALL_V2_WITH_DELETIONS' } },
      { parameters: { employee: 1, newTitle: 'Dry' }, options: { mode: 'VALIDATE_ONLY' } },
    ];
    for (const value of bodies) {
      const lane = await post(`${ACTIONS}/promoteEmployee/apply`, JSON.stringify(value), LANE_TYPE);
      const route = await post(`${ACTIONS}/promoteEmployee/apply`, JSON.stringify(value), ROUTE_TYPE);
      expect([lane.status, lane.routed, route.status, route.routed]).toEqual([200, false, 200, true]);
      expect(lane.headers).toEqual(route.headers);
      expect(lane.body).toBe(route.body);
      const [routeEntry, laneEntry] = lastTwo();
      expect(comparable(laneEntry as never)).toEqual(comparable(routeEntry as never));
      expect(laneEntry?.username).toBe('dev');
    }
    expect(JSON.parse((await post(`${ACTIONS}/promoteEmployee/apply`, JSON.stringify(bodies[1]), LANE_TYPE)).body).edits.type).toBe('edits');
    // VALIDATE_ONLY changed nothing; the others did.
    expect(await titleOf(1)).toBe('Lead');
    const lane = await post(`${ACTIONS}/promoteEmployee/apply`, JSON.stringify({ parameters: { employee: 2, newTitle: 'Chief' } }), LANE_TYPE);
    expect(lane.routed).toBe(false);
    expect(await titleOf(2)).toBe('Chief');
  });

  it('applies a create once: the same create again is INVALID, answered by the route with its journal note', async () => {
    const hire = JSON.stringify({ parameters: { employeeId: 77, fullName: 'New Hire' } });
    const first = await post(`${ACTIONS}/hireEmployee/apply`, hire, LANE_TYPE);
    expect([first.status, first.routed, JSON.parse(first.body).validation.result]).toEqual([200, false, 'VALID']);
    const again = await post(`${ACTIONS}/hireEmployee/apply`, hire, LANE_TYPE);
    const route = await post(`${ACTIONS}/hireEmployee/apply`, hire, ROUTE_TYPE);
    expect([again.status, again.routed, JSON.parse(again.body).validation.result]).toEqual([200, true, 'INVALID']);
    expect([again.headers, again.body]).toEqual([route.headers, route.body]);
    const [entry] = app.journal.list({});
    expect(entry?.reason).toMatch(/already exists; nothing was changed/);
    // One entry per request: the lane journals nothing it hands back.
    expect(app.journal.list({}).filter((e) => e.path === `${ACTIONS}/hireEmployee/apply`)).toHaveLength(3);
  });

  it('leaves refusals, INVALID validations and bodies it does not take to the route, body intact, nothing changed', async () => {
    const cases: Array<[string, string, number]> = [
      ['nope', '{"parameters":{}}', 404],
      ['promoteEmployee', '{"parameters":{"employee":1,"newTitle":"X","extra":1}}', 400],
      ['promoteEmployee', '{"parameters":{"employee":1,"newTitle":5}}', 400],
      ['promoteEmployee', '{"parameters":{"employee":1}}', 200],
      ['promoteEmployee', '{"parameters":{"employee":999,"newTitle":"X"}}', 200],
      ['promoteEmployee', '{"parameters":{"employee":1,"newTitle":"X"},"options":{"mode":"SOMETIMES"}}', 400],
      ['promoteEmployee', '{"parameters":[1]}', 400],
      ['promoteEmployee', '[1]', 400],
      ['promoteEmployee', '{"parameters":', 400],
      ['promoteEmployee', '{"parameters":{"employee":1,"newTitle":"X"},"__proto__":{"x":1}}', 400],
      ['promoteEmployee', `${'['.repeat(70)}${']'.repeat(70)}`, 400],
    ];
    for (const [action, body, status] of cases) {
      const lane = await post(`${ACTIONS}/${action}/apply`, body, LANE_TYPE);
      const route = await post(`${ACTIONS}/${action}/apply`, body, ROUTE_TYPE);
      expect([lane.status, lane.routed, route.routed], `${action} ${body}`).toEqual([status, true, true]);
      expect(lane.headers).toEqual(route.headers);
      if (status === 200) expect(lane.body).toBe(route.body);
      else expect(withoutInstance(lane.body)).toEqual(withoutInstance(route.body));
      const [routeEntry, laneEntry] = lastTwo();
      expect(comparable(laneEntry as never)).toEqual(comparable(routeEntry as never));
    }
    expect(await titleOf(1)).toBe('Lead');
  });

  it('leaves bad tokens, a missing scope, a browser request and a faulted one to the route', async () => {
    const body = JSON.stringify({ parameters: { employee: 3, newTitle: 'Nope' } });
    const expiring = await mintToken(app, 'dev', ['api:ontologies-write']);
    clock.advance(7 * 24 * 3600_000);
    const readOnly = await mintToken(app, 'dev', ['api:ontologies-read']);
    token = await mintToken(app, 'dev', ['api:ontologies-read', 'api:ontologies-write']);
    const cases: Array<[Record<string, string>, number]> = [
      [{}, 401],
      [{ authorization: 'Bearer platform_nope' }, 401],
      [{ authorization: `Bearer ${expiring}` }, 401],
      [{ authorization: `Bearer ${readOnly}` }, 403],
    ];
    for (const [headers, status] of cases) {
      const lane = await post(`${ACTIONS}/promoteEmployee/apply`, body, LANE_TYPE, headers);
      const route = await post(`${ACTIONS}/promoteEmployee/apply`, body, ROUTE_TYPE, headers);
      expect([lane.status, lane.routed, route.routed]).toEqual([status, true, true]);
      expect([lane.headers, withoutInstance(lane.body)]).toEqual([route.headers, withoutInstance(route.body)]);
    }
    const cors = await post(`${ACTIONS}/promoteEmployee/apply`, body, LANE_TYPE, { authorization: `Bearer ${token}`, origin: 'http://localhost:5173' });
    expect([cors.status, cors.routed]).toEqual([200, true]);
    app.faults.arm({ method: 'POST', path: `${ACTIONS}/promoteEmployee/apply`, times: 1, status: 503 });
    const faulted = await post(`${ACTIONS}/promoteEmployee/apply`, body, LANE_TYPE);
    expect([faulted.status, faulted.routed]).toEqual([503, true]);
    const after = await post(`${ACTIONS}/promoteEmployee/apply`, body, LANE_TYPE);
    expect([after.status, after.routed]).toEqual([200, false]);
    // A query or an encoded path segment is the route's too.
    expect((await post(`${ACTIONS}/promoteEmployee/apply?preview=true`, body, LANE_TYPE)).routed).toBe(true);
    expect((await post(`${ACTIONS}/promote%45mployee/apply`, body, LANE_TYPE)).routed).toBe(true);
  });
});
