// Fast lanes: the hottest requests, answered in front of the framework (docs/architecture.md, Hot paths). A route
// registers its lane beside itself (`app.addFastLane`). A lane takes a request only on its exact path with no
// query, with no Origin header (no CORS answer to add), no fault armed and the service not closing; it answers a
// clean success and the commonest refusals (a missing, unknown or expired bearer token; a token request its
// grant refuses without side effects), so that a bad request costs no more than a good one (bench bad-input).
// Anything else, and any failure before the answer starts, goes to the route, which decides and renders as
// always: the route stays the truth. A lane must answer byte for byte what its route would
// (test/http/fast-lane.test.ts and fast-lane-json.test.ts compare them) and is journaled and logged as the
// route's hook would do it. Routes with path parameters register a JSON lane (fast-lane-json.ts).
import { Readable } from 'node:stream';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Store } from '../store/store.js';
import type { Clock } from '../clock.js';
import type { UserRecord } from '../store/users.js';
import type { AnsweredRequest } from './journal/hook.js';
import { clientClosed } from './journal/client-left.js';
import type { FrontLane } from './server-limits.js';
import { bearerAnswer, type PlainAnswer } from './render-error.js';
import { EXPIRED_TOKEN, NO_TOKEN, UNKNOWN_TOKEN } from './bearer-refusals.js';
import type { EmulatorError, Unauthenticated } from '../errors.js';
import { bearerJsonPost, type BearerJsonLane, type PatternLane, patternLane } from './fast-lane-json.js';

export type { BearerJsonLane } from './fast-lane-json.js';

/** A GET behind a bearer token: the token known, unexpired, of an active user, with the route's scope. */
export interface BearerReadLane {
  kind: 'bearer-read';
  path: string;
  scope: string;
  /** The JSON text of the route's answer for this principal (what its handler sends, serialized). */
  answerJson(principal: UserRecord): string;
}

/** A POST of a small `application/x-www-form-urlencoded` body (exactly that type, with a Content-Length). */
export interface FormPostLane {
  kind: 'form-post';
  path: string;
  /** The route's answer (a success, or a refusal made before anything changed), or undefined to leave it the request. */
  answer(form: string, authorization: string | undefined): Promise<LaneAnswer | undefined>;
  /**
   * The route's refusal of a small body sent as exactly `application/json` (a route that takes forms only has
   * no parser for it): a common mistake, answered here so that it costs no more than a good request.
   */
  jsonRefusal?: () => LaneAnswer;
}

/** What a form lane answered, and what the journal names for it (as the route's hook would). */
export interface LaneAnswer extends PlainAnswer {
  refusal?: EmulatorError;
  clientId?: string;
  username?: string;
}

export type FastLane = BearerReadLane | FormPostLane | BearerJsonLane;

declare module 'fastify' {
  interface FastifyInstance {
    /** Registers a route's fast lane; call it before the route itself is added. */
    addFastLane(lane: FastLane): void;
  }
}

interface FastLaneDeps {
  store: Store;
  clock: Clock;
}

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;
const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';
/** Larger forms take the route (whose body limit and parser apply). */
const MAX_FORM_BYTES = 8192;
/** A body a lane read and then left to its route, replayed to the route's parser. */
const READ_BODY = Symbol('fast-lane body');
type WithReadBody = IncomingMessage & { [READ_BODY]?: Buffer };
/** A bearer lookup a lane made and then left to its route: the auth hook uses it instead of asking the store again. */
const LOOKED_UP = Symbol('fast-lane bearer lookup');
type BearerLookup = Awaited<ReturnType<Store['tokens']['findAccessWithPrincipal']>>;
type WithLookup = IncomingMessage & { [LOOKED_UP]?: { token: string; found: BearerLookup } };

/** The lookup a lane made for this token, if it made one (src/http/auth.ts asks before the store). */
export function laneLookup(req: IncomingMessage, presented: string): { found: BearerLookup } | undefined {
  const lookup = (req as WithLookup)[LOOKED_UP];
  return lookup?.token === presented ? lookup : undefined;
}

const elapsedMs = (started: number) => Math.round((performance.now() - started) * 1000) / 1000;

// The CORS hook's Vary comes first on the route's answer too.
const headersOf = (answer: PlainAnswer) => [
  'vary',
  'Origin',
  ...answer.headers,
  'content-type',
  'application/json; charset=utf-8',
  'content-length',
  String(Buffer.byteLength(answer.body)),
];

function write(res: ServerResponse, answer: PlainAnswer): void {
  res.writeHead(answer.status, headersOf(answer));
  res.end(answer.body);
}

/**
 * An answer made once and shared (a common 401): its header list is made once too. The body goes as text, not
 * bytes: Node joins a text body to the header text and sends both in one write, while a Buffer body makes the
 * header a chunk of its own and the pair a writev (more CPU per answer).
 */
const sharedHeaders = new WeakMap<PlainAnswer, string[]>();
function writeShared(res: ServerResponse, answer: PlainAnswer): void {
  let headers = sharedHeaders.get(answer);
  if (headers === undefined) sharedHeaders.set(answer, (headers = headersOf(answer)));
  res.writeHead(answer.status, headers);
  res.end(answer.body);
}

/** Decorates `addFastLane`; returns what the server's request listener asks first (src/http/server-limits.ts). */
export function installFastLanes(app: FastifyInstance, deps: FastLaneDeps): FrontLane {
  // By path: one lookup per request, no key built (a lane serves one method). Lanes of routes with path
  // parameters are matched after that, in order (fast-lane-json.ts).
  const lanes = new Map<string, FastLane>();
  const patterns: PatternLane[] = [];
  const methodOf = (lane: FastLane) => (lane.kind === 'bearer-read' ? 'GET' : 'POST');
  let closing = false;
  app.addHook('preClose', async () => void (closing = true));
  app.decorate('addFastLane', (lane: FastLane) => {
    if (lane.kind === 'bearer-json') patterns.push(patternLane(lane));
    lanes.set(lane.path, lane);
  });
  // A body a lane read and declined reaches its route's parser as if it came from the socket.
  app.addHook('onRoute', (route) => {
    const lane = lanes.get(route.url);
    if (route.method !== 'POST' || lane === undefined || methodOf(lane) !== 'POST') return;
    const own = route.preParsing === undefined ? [] : Array.isArray(route.preParsing) ? route.preParsing : [route.preParsing];
    route.preParsing = [
      (request, _reply, payload, done) => {
        const body = (request.raw as WithReadBody)[READ_BODY];
        done(null, body === undefined ? payload : Readable.from([body], { objectMode: false }));
      },
      ...own,
    ];
  });

  function bearerRead(lane: BearerReadLane, req: IncomingMessage, res: ServerResponse, route: () => void): boolean {
    const started = performance.now();
    const refuse = (refusal: Unauthenticated) => {
      writeShared(res, bearerAnswer(refusal));
      journal(req, 401, elapsedMs(started), { refusal });
    };
    const presented = req.headers.authorization === undefined ? undefined : BEARER.exec(req.headers.authorization)?.[1];
    if (!presented) {
      refuse(NO_TOKEN);
      return true;
    }
    // The auth hook's order (src/http/auth.ts); what it refuses past expiry (no user, deactivated, scope) is the route's.
    const serve = (found: BearerLookup) => {
      if (!found) return refuse(UNKNOWN_TOKEN);
      const { token, principal } = found;
      if (token.expiresAt <= deps.clock.now()) return refuse(EXPIRED_TOKEN);
      if (!principal?.active || !token.scopes.includes(lane.scope)) {
        (req as WithLookup)[LOOKED_UP] = { token: presented, found };
        return route();
      }
      write(res, { status: 200, headers: [], body: lane.answerJson(principal) });
      journal(req, 200, elapsedMs(started), { clientId: token.clientId ?? undefined, username: principal.username });
    };
    deps.store.tokens
      .findAccessWithPrincipal(presented)
      .then(serve)
      .catch(() => (res.headersSent ? res.destroy() : route()));
    return true;
  }

  function formPost(lane: FormPostLane, req: WithReadBody, res: ServerResponse, route: () => void): boolean {
    const length = Number(req.headers['content-length']);
    const type = req.headers['content-type'];
    const refuseJson = type === JSON_TYPE ? lane.jsonRefusal : undefined;
    if ((type !== FORM && refuseJson === undefined) || req.headers['transfer-encoding'] !== undefined || !(length >= 0 && length <= MAX_FORM_BYTES))
      return false;
    const started = performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => {
      const authorization = req.headers.authorization;
      const basic = authorization !== undefined && /^Basic /i.test(authorization) ? authorization : undefined;
      // As the route, which reads the body before its catch-all parser refuses the type.
      if (refuseJson !== undefined) {
        const refused = refuseJson();
        write(res, refused);
        return journal(req, refused.status, elapsedMs(started), { refusal: refused.refusal, basic });
      }
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      const decline = () => {
        if (res.headersSent) return void res.destroy();
        req[READ_BODY] = body;
        route();
      };
      lane
        .answer(body.toString('utf8'), authorization)
        .then((answered) => {
          if (!answered) return decline();
          write(res, answered);
          journal(req, answered.status, elapsedMs(started), {
            refusal: answered.refusal,
            clientId: answered.clientId,
            basic,
            username: answered.username,
          });
        })
        .catch(decline);
    });
    return true;
  }

  function journal(
    req: IncomingMessage,
    status: number,
    durationMs: number,
    who: { clientId?: string; basic?: string; username?: string; refusal?: EmulatorError },
  ): void {
    const answered: AnsweredRequest = {
      method: req.method!,
      url: req.url!,
      status,
      durationMs,
      clientId: who.clientId,
      basic: who.basic,
      username: who.username,
      refusal: who.refusal,
      // Its client left while the lane waited (a token lookup, a grant): the answer reached no one. The duration
      // is then until the lane noticed, at most the lookup's time longer than the client waited.
      clientLeft: clientClosed(req.socket),
    };
    app.journal.recordAnswered(answered);
  }

  /** A body read in full and then left to the route: replayed to the route's parser (the onRoute hook above). */
  const handBack = (req: WithReadBody, res: ServerResponse, body: Buffer, route: () => void) => {
    if (res.headersSent) return void res.destroy();
    req[READ_BODY] = body;
    route();
  };
  const jsonTools = {
    store: deps.store,
    clock: deps.clock,
    write,
    handBack,
    keepLookup: (req: IncomingMessage, token: string, found: BearerLookup) => void ((req as WithLookup)[LOOKED_UP] = { token, found }),
    journal: (req: IncomingMessage, status: number, started: number, clientId: string | undefined, username: string) =>
      journal(req, status, elapsedMs(started), { clientId, username }),
  };

  return (req, res, route) => {
    if (closing || lanes.size === 0) return false;
    const lane = lanes.get(req.url!);
    if (lane === undefined && patterns.length > 0 && req.method === 'POST') {
      for (const pattern of patterns) {
        const params = pattern.match(req.url!);
        if (params === undefined) continue;
        if (req.headers.origin !== undefined || app.faults.anyArmed()) return false;
        return bearerJsonPost(pattern.lane, params, req, res, route, jsonTools);
      }
      return false;
    }
    if (!lane || lane.kind === 'bearer-json' || req.method !== methodOf(lane) || req.headers.origin !== undefined || app.faults.anyArmed()) return false;
    return lane.kind === 'bearer-read' ? bearerRead(lane, req, res, route) : formPost(lane, req, res, route);
  };
}
