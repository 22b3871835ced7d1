// The fast lanes (src/http/fast-lane.ts) of getCurrent and of the client_credentials token answer what their routes
// would, byte for byte, and leave every other case to the route (a declined form reaches it intact). On a real
// socket: inject() never passes through the server's request listener.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { mintToken } from '../helpers/app.js';
import { laneHarness, type LaneHarness } from './lane-harness.js';
import type { ManualClock } from '../../src/clock.js';

const PATH = '/api/v2/admin/users/getCurrent';
const TOKEN = '/idp/api/oauth2/token';
const SEED = {
  platform: {
    oauth_clients: [{ client_id: 'svc', client_secret: 'svc-secret-0123456789', grant_types: ['client_credentials'], allowed_scopes: ['api:admin-read'] }],
  },
};
const BASIC = `Basic ${Buffer.from('svc:svc-secret-0123456789').toString('base64')}`;
let app: FastifyInstance;
let clock: ManualClock;
let lanes: LaneHarness;

beforeAll(async () => {
  lanes = await laneHarness(SEED);
  ({ app, clock } = lanes);
});
afterAll(() => app.close());

/** A journal entry without what differs between any two requests. */
const comparable = (e: Record<string, unknown>) => {
  const { id: _id, time: _time, durationMs: _duration, path: _path, ...rest } = e;
  return rest;
};

async function get(path: string, headers: Record<string, string>, body?: string) {
  return lanes.send(path, body === undefined ? { headers } : { method: 'POST', headers, body });
}

describe('the getCurrent fast lane', () => {
  it('answers a plain success without the framework, exactly as the route does', async () => {
    const token = await mintToken(app, 'admin', ['api:admin-read']);
    const lane = await get(PATH, { authorization: `Bearer ${token}` });
    // A query string sends the request to the route: the same answer must come back.
    const route = await get(`${PATH}?preview=false`, { authorization: `Bearer ${token}` });
    expect(lane.routed).toBe(false);
    expect(route.routed).toBe(true);
    expect(lane.status).toBe(200);
    expect(lane.headers).toEqual(route.headers);
    expect(lane.body).toBe(route.body);
    expect(JSON.parse(lane.body).username).toBe('admin');
  });

  it("answers the user's record as it is now after the record changes (the answer text is kept per record)", async () => {
    const token = await mintToken(app, 'admin', ['api:admin-read']);
    const auth = { authorization: `Bearer ${token}` };
    const before = await get(PATH, auth);
    const record = (await lanes.store.users.byUsername('admin'))!;
    await lanes.store.users.upsert({ ...record, givenName: 'Renamed' });
    try {
      const after = await get(PATH, auth);
      const route = await get(`${PATH}?preview=false`, auth);
      expect([before.routed, after.routed]).toEqual([false, false]);
      expect(JSON.parse(after.body).givenName).toBe('Renamed');
      expect(after.body).toBe(route.body);
      expect(after.body).not.toBe(before.body);
    } finally {
      await lanes.store.users.upsert(record);
    }
    expect((await get(PATH, auth)).body).toBe(before.body);
  });

  it('journals the request as the route hook does', async () => {
    const token = await mintToken(app, 'admin', ['api:admin-read']);
    await get(PATH, { authorization: `Bearer ${token}` });
    await get(`${PATH}?preview=false`, { authorization: `Bearer ${token}` });
    const [routeEntry, laneEntry] = app.journal.list({}).filter((e) => e.path.startsWith(PATH));
    expect(laneEntry).toBeDefined();
    expect(comparable(laneEntry as never)).toEqual(comparable(routeEntry as never));
  });

  it('refuses a missing, malformed, unknown or expired token itself, exactly as the route does', async () => {
    const expiring = await mintToken(app, 'admin', ['api:admin-read']);
    clock.advance(7 * 24 * 3600_000);
    const cases: Array<Record<string, string>> = [
      {},
      { authorization: 'Basic Zm9vOmJhcg==' },
      { authorization: 'Bearer a b c' },
      { authorization: 'Bearer platform_nope' },
      { authorization: `Bearer ${expiring}` },
    ];
    for (const headers of cases) {
      const lane = await get(PATH, headers);
      const route = await get(`${PATH}?preview=false`, headers);
      expect([lane.status, lane.routed, route.status, route.routed]).toEqual([401, false, 401, true]);
      expect(lane.headers).toEqual(route.headers);
      expect(lane.body).toBe(route.body);
      const [routeEntry, laneEntry] = app.journal.list({}).filter((e) => e.path.startsWith(PATH));
      expect(laneEntry?.reason).toMatch(/bearer token|expired/);
      expect(comparable(laneEntry as never)).toEqual(comparable(routeEntry as never));
    }
  });

  it('writes a shared refusal to the socket as it writes a success (a Buffer body costs the head a chunk of its own: bench bad-input)', async () => {
    const token = await mintToken(app, 'admin', ['api:admin-read']);
    let writes: string[] = [];
    const count = (socket: Socket) => {
      const write = socket._write.bind(socket);
      const writev = socket._writev!.bind(socket);
      socket._write = (chunk, encoding, done) => (writes.push('write'), write(chunk, encoding, done));
      socket._writev = (chunks, done) => (writes.push(`writev of ${chunks.length}`), writev(chunks, done));
    };
    const socketWrites = async (headers: Record<string, string>) => {
      writes = [];
      // A connection of its own, so that the server's socket is a new one, counted from its start.
      const status = await new Promise<number>((resolve, reject) =>
        http.get(lanes.base + PATH, { agent: false, headers }, (res) => res.resume().on('end', () => resolve(res.statusCode!))).on('error', reject),
      );
      return { status, writes };
    };
    app.server.on('connection', count);
    try {
      const success = await socketWrites({ authorization: `Bearer ${token}` });
      expect(success.status).toBe(200);
      for (const headers of [{}, { authorization: 'Bearer platform_unknown' }] as Array<Record<string, string>>)
        expect(await socketWrites(headers)).toEqual({ status: 401, writes: success.writes });
    } finally {
      app.server.off('connection', count);
    }
  });

  it('leaves the refusals past expiry (scope, deactivated user) to the route, which renders them', async () => {
    const noScope = await mintToken(app, 'admin', ['api:ontologies-read']);
    const denied = await get(PATH, { authorization: `Bearer ${noScope}` });
    expect([denied.status, JSON.parse(denied.body).errorName, denied.routed]).toEqual([403, 'GetCurrentUserPermissionDenied', true]);
  });

  it('leaves a browser request (Origin) and a faulted one to the route', async () => {
    const token = await mintToken(app, 'admin', ['api:admin-read']);
    const cors = await get(PATH, { authorization: `Bearer ${token}`, origin: 'http://localhost:5173' });
    expect(cors.routed).toBe(true);
    expect(cors.status).toBe(200);
    app.faults.arm({ method: 'GET', path: PATH, times: 1, status: 503 });
    const faulted = await get(PATH, { authorization: `Bearer ${token}` });
    expect([faulted.status, faulted.routed]).toEqual([503, true]);
    const after = await get(PATH, { authorization: `Bearer ${token}` });
    expect([after.status, after.routed]).toEqual([200, false]);
  });
});

describe('the client_credentials token fast lane', () => {
  const FORM = 'application/x-www-form-urlencoded';
  const withoutToken = (text: string) => ({ ...JSON.parse(text), access_token: '<token>' });

  it('answers a clean success exactly as the route does, and the token works', async () => {
    // The first request reads the client from the store; later ones prove it against the remembered record
    // (src/services/oauth/grants/remembered-client.ts). Both are the lane's.
    const first = await get(TOKEN, { authorization: BASIC, 'content-type': FORM }, 'grant_type=client_credentials');
    expect([first.status, first.routed]).toEqual([200, false]);
    const lane = await get(TOKEN, { authorization: BASIC, 'content-type': FORM }, 'grant_type=client_credentials&scope=api:admin-read');
    // A charset parameter sends the request to the route.
    const route = await get(TOKEN, { authorization: BASIC, 'content-type': `${FORM}; charset=utf-8` }, 'grant_type=client_credentials&scope=api:admin-read');
    expect([lane.status, lane.routed, route.status, route.routed]).toEqual([200, false, 200, true]);
    expect(lane.headers).toEqual(route.headers);
    expect(withoutToken(lane.body)).toEqual(withoutToken(route.body));
    const me = await get(PATH, { authorization: `Bearer ${JSON.parse(lane.body).access_token}` });
    expect(JSON.parse(me.body).username).toBe('svc');
    const [entry] = app.journal.list({}).filter((e) => e.path === TOKEN);
    expect([entry?.clientId, entry?.username]).toEqual(['svc', 'svc']);
  });

  it('refuses a wrong secret, a bad Basic header, a bad scope and an unknown or missing grant type itself, as the route does', async () => {
    const cases: Array<[string | undefined, string, string]> = [
      [`Basic ${Buffer.from('svc:wrong').toString('base64')}`, 'grant_type=client_credentials', 'invalid_client'],
      ['Basic %%%notbase64', 'grant_type=client_credentials', 'invalid_client'],
      [BASIC, 'grant_type=client_credentials&scope=api:admin-write', 'invalid_scope'],
      [BASIC, 'grant_type=password&username=a', 'unsupported_grant_type'],
      [BASIC, 'grant_type=%E0%A4%A&scope=%', 'unsupported_grant_type'],
      [undefined, 'client_id=svc', 'invalid_request'],
    ];
    for (const [authorization, body, error] of cases) {
      const headers = (type: string): Record<string, string> =>
        authorization === undefined ? { 'content-type': type } : { authorization, 'content-type': type };
      const lane = await get(TOKEN, headers(FORM), body);
      const route = await get(TOKEN, headers(`${FORM}; charset=utf-8`), body);
      expect([JSON.parse(lane.body).error, lane.routed, route.routed]).toEqual([error, false, true]);
      expect([lane.status, lane.headers, lane.body]).toEqual([route.status, route.headers, route.body]);
      const [routeEntry, laneEntry] = app.journal.list({}).filter((e) => e.path === TOKEN);
      expect(laneEntry?.errorCode).toBe(error);
      expect(comparable(laneEntry as never)).toEqual(comparable(routeEntry as never));
    }
  });

  it('refuses a small JSON body itself (the route takes forms only), as the route does', async () => {
    for (const [authorization, body] of [
      [BASIC, '{"grant_type": '],
      [undefined, '{"grant_type": "client_credentials"}'],
    ] as const) {
      const headers = (type: string): Record<string, string> =>
        authorization === undefined ? { 'content-type': type } : { authorization, 'content-type': type };
      const lane = await get(TOKEN, headers('application/json'), body);
      // A charset parameter sends it to the route (the lane takes exactly `application/json`).
      const route = await get(TOKEN, headers('application/json; charset=utf-8'), body);
      expect([lane.status, JSON.parse(lane.body).error, lane.routed, route.routed]).toEqual([400, 'invalid_request', false, true]);
      expect([lane.status, lane.headers, lane.body]).toEqual([route.status, route.headers, route.body]);
      const [routeEntry, laneEntry] = app.journal.list({}).filter((e) => e.path === TOKEN);
      expect(laneEntry?.reason).toBe('Unsupported content type.');
      expect(comparable(laneEntry as never)).toEqual(comparable(routeEntry as never));
    }
    // The connection stays usable after the lane's refusal: a good request follows on it.
    const good = await get(TOKEN, { authorization: BASIC, 'content-type': FORM }, 'grant_type=client_credentials');
    expect(good.status).toBe(200);
  });

  it('hands a declined form to the route with its body intact', async () => {
    const repeated = await get(TOKEN, { authorization: BASIC, 'content-type': FORM }, 'grant_type=client_credentials&grant_type=client_credentials');
    expect([repeated.status, JSON.parse(repeated.body).error, repeated.routed]).toEqual([400, 'invalid_request', true]);
    // Codes change state before they can fail: always the route's, which read the replayed body.
    const code = await get(TOKEN, { authorization: BASIC, 'content-type': FORM }, 'grant_type=authorization_code&code=nope&redirect_uri=http://x');
    expect([code.status, JSON.parse(code.body).error, code.routed]).toEqual([400, 'unauthorized_client', true]);
  });
});
