// The fast lane of a JSON POST behind a bearer token, on a route with path parameters (docs/architecture.md, Hot
// paths): an action's apply, which an app or a bench sends at a steady rate, and which through the framework
// cost several times what the action itself does (docs/live-ontology.md, Bench). Like every lane
// (fast-lane.ts), it answers only a clean success and leaves everything else to the route, which decides and
// renders as always: the request is handed back with its body, and nothing has changed when it is.
//
// Taken: POST on the exact path (each parameter plain letters, digits, `_.~-`, so that it needs no decoding),
// no query, a body of exactly `application/json` with a Content-Length up to MAX_BODY_BYTES. Read in full, then
// handed back unless: the token is known, unexpired, of an active user, with the route's scope; the body parses
// as the route's parser would parse it (a JSON object; none of the keys the framework's prototype-poisoning
// check refuses; nested at most MAX_JSON_DEPTH); it has no top-level `client_id` (which the journal would show
// for a token without a client); and the lane's `answer` gives one.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Store } from '../store/store.js';
import type { Clock } from '../clock.js';
import type { UserRecord } from '../store/users.js';
import { MAX_JSON_DEPTH, nestedDeeperThan } from './body-parsers.js';
import type { PlainAnswer } from './render-error.js';

/** A bearer-authenticated JSON POST on a route with path parameters. */
export interface BearerJsonLane {
  kind: 'bearer-json';
  /** The route's path as registered, `:name` for each parameter. */
  path: string;
  scope: string;
  /**
   * The route's answer (a 200) for this principal, or undefined to leave the request to the route. It may leave
   * it only before it changes anything; once it has changed state it answers (docs/architecture.md).
   */
  answer(params: Record<string, string>, body: Record<string, unknown>, principal: UserRecord): Promise<unknown>;
}

export interface PatternLane {
  lane: BearerJsonLane;
  /** The path's parameters, or undefined when the URL is not this lane's (a query, an encoded character). */
  match(url: string): Record<string, string> | undefined;
}

/** What the lane needs of fast-lane.ts. */
export interface JsonLaneTools {
  store: Store;
  clock: Clock;
  /** Writes an answer as every lane does (the route's headers, in its order). */
  write(res: ServerResponse, answer: PlainAnswer): void;
  /** Leaves the request, with the body read, to its route. */
  handBack(req: IncomingMessage, res: ServerResponse, body: Buffer, route: () => void): void;
  /** Lets the route's auth hook use the lookup made here. */
  keepLookup(req: IncomingMessage, token: string, found: Awaited<ReturnType<Store['tokens']['findAccessWithPrincipal']>>): void;
  journal(req: IncomingMessage, status: number, started: number, clientId: string | undefined, username: string): void;
}

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;
const JSON_TYPE = 'application/json';
/** Larger bodies take the route. An action's parameters are a few hundred bytes. */
const MAX_BODY_BYTES = 16 * 1024;
/** Keys the framework's parser refuses (prototype poisoning): a body naming them anywhere goes to the route. */
const POISON = /__proto__|constructor/;
const PLAIN_SEGMENT = '([A-Za-z0-9_.~-]+)';

export function patternLane(lane: BearerJsonLane): PatternLane {
  const names: string[] = [];
  const source = lane.path
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':')) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(segment.slice(1));
      return PLAIN_SEGMENT;
    })
    .join('/');
  const pattern = new RegExp(`^${source}$`);
  return {
    lane,
    match(url) {
      const found = pattern.exec(url);
      if (!found) return undefined;
      const params: Record<string, string> = {};
      for (const [i, name] of names.entries()) params[name] = found[i + 1]!;
      return params;
    },
  };
}

/** The body as the route's JSON parser would read it, when it is an object; undefined to leave it to the route. */
function plainObject(text: string): Record<string, unknown> | undefined {
  if (POISON.test(text) || (text.length > 2 * MAX_JSON_DEPTH && nestedDeeperThan(text, MAX_JSON_DEPTH))) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || 'client_id' in value) return undefined;
  return value as Record<string, unknown>;
}

/** Takes the request (true) or leaves it untouched to the framework (false). */
export function bearerJsonPost(
  lane: BearerJsonLane,
  params: Record<string, string>,
  req: IncomingMessage,
  res: ServerResponse,
  route: () => void,
  tools: JsonLaneTools,
): boolean {
  const length = Number(req.headers['content-length']);
  const presented = req.headers.authorization === undefined ? undefined : BEARER.exec(req.headers.authorization)?.[1];
  // A missing token is the route's 401 before it reads anything: nothing to gain from reading the body here.
  if (req.headers['content-type'] !== JSON_TYPE || req.headers['transfer-encoding'] !== undefined || !(length > 0 && length <= MAX_BODY_BYTES) || !presented)
    return false;
  const started = performance.now();
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.once('end', () => {
    const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    const handBack = () => tools.handBack(req, res, body, route);
    tools.store.tokens
      .findAccessWithPrincipal(presented)
      .then(async (found) => {
        const principal = found?.principal;
        if (!found || !principal?.active || found.token.expiresAt <= tools.clock.now() || !found.token.scopes.includes(lane.scope)) {
          // The route refuses it (or finds the user it could not): with this lookup rather than a second one.
          if (found) tools.keepLookup(req, presented, found);
          return handBack();
        }
        const value = plainObject(body.toString('utf8'));
        const answer = value === undefined ? undefined : await lane.answer(params, value, principal);
        if (answer === undefined) return handBack();
        tools.write(res, { status: 200, headers: [], body: JSON.stringify(answer) });
        tools.journal(req, 200, started, found.token.clientId ?? undefined, principal.username);
      })
      .catch(handBack);
  });
  return true;
}
