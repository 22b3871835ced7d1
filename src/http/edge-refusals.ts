// The refusals of the HTTP layer itself, before any route runs, in the family's envelope (docs/contracts.md §1): a bad
// percent-escape or an overlong path segment (the router's), and malformed framing, an oversize header, an
// unknown method, a slow request, CONNECT or an unmet Expect (Node's). Left to themselves, Fastify and Node
// answer these with their own bodies (`FST_ERR_BAD_URL`, `{"statusCode":400,...}`), or none, and close the
// connection without saying so, so that a keep-alive client's next request met a reset socket.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { OAuthError, PlatformError, type EmulatorError } from '../errors.js';
import { randomUuid } from '../ids.js';
import { errorFamily } from './route-config.js';
import type { PathPolicies } from './path-policy.js';
import { render } from './render-error.js';
import { answeredSockets } from './answered-sockets.js';

/** The router's longest path segment; docs/contracts.md §6 allows runtime ids of 128, rids are longer. */
export const MAX_PARAM_LENGTH = 1024;

interface Refusal {
  status: number;
  description: string;
}

/** A refusal as the error of its family: INVALID_ARGUMENT (keeping the HTTP status) or invalid_request. */
function asError(policies: PathPolicies, url: string, { status, description }: Refusal): EmulatorError {
  return errorFamily(url, policies) === 'platform'
    ? new PlatformError('INVALID_ARGUMENT', 'InvalidArgument', {}, description, status)
    : new OAuthError('invalid_request', description, status);
}

const SEGMENT_TOO_LONG: Refusal = { status: 414, description: `A path segment is longer than ${MAX_PARAM_LENGTH} characters.` };

/** Fastify's `frameworkErrors`: the router's refusals, answered through the renderers like any error. */
export function answerFrameworkError(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const refusal: Refusal =
    err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? SEGMENT_TOO_LONG : { status: 400, description: 'The request path has a malformed percent-escape.' };
  void render(reply, asError(request.server.pathPolicies, request.url, refusal));
}

/**
 * The router's 414 for a path with an overlong segment, for a wildcard route that caught such a path after the
 * parametric route refused it (so that a catch-all does not turn the 414 into a 404); undefined otherwise.
 */
export function overlongSegment(policies: PathPolicies, url: string): EmulatorError | undefined {
  const path = url.split('?', 1)[0]!;
  return path.split('/').some((segment) => segment.length > MAX_PARAM_LENGTH) ? asError(policies, url, SEGMENT_TOO_LONG) : undefined;
}

/** Node's client errors carry the bytes that failed to parse as `rawPacket` (a Buffer, whatever Fastify's types say). */
type ClientError = Error & { code?: string; rawPacket?: unknown };

function clientRefusal(err: ClientError): Refusal {
  switch (err.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, description: 'The request was not received in time.' };
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, description: 'The request headers are larger than 16 KiB.' };
    case 'HPE_INVALID_METHOD':
      return { status: 400, description: 'The request method is not one this service knows.' };
    default:
      return { status: 400, description: 'The request is not well-formed HTTP/1.1.' };
  }
}

/** The method and target of the request line at the start of `raw`, when there is one. */
function requestLine(raw: unknown): { method: string; url: string } | undefined {
  if (!Buffer.isBuffer(raw)) return undefined;
  const line = /^([!-~]+) (\S+)/.exec(raw.toString('latin1', 0, Math.min(raw.length, 8192)));
  return line ? { method: line[1]!, url: line[2]! } : undefined;
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The refusal in the family's envelope; a platform refusal's errorInstanceId is logged, as every one is. */
function envelope(app: FastifyInstance, url: string, refusal: Refusal): Answer {
  const err = asError(app.pathPolicies, url, refusal);
  const headers: Record<string, string> = { 'Content-Type': 'application/json; charset=utf-8' };
  let body: string;
  if (err instanceof PlatformError) {
    const errorInstanceId = randomUuid();
    app.logPlatformError('info', { reqId: 'http-layer', errorInstanceId, errorCode: err.errorCode, errorName: err.errorName });
    body = JSON.stringify({ errorCode: err.errorCode, errorName: err.errorName, errorDescription: err.errorDescription, errorInstanceId, parameters: {} });
  } else {
    const oauth = err as OAuthError;
    body = JSON.stringify({ error: oauth.error, error_description: oauth.errorDescription });
    headers['Cache-Control'] = 'no-store';
    headers.Pragma = 'no-cache';
  }
  return { status: refusal.status, headers, body };
}

/** The whole answer as bytes, written on a socket no ServerResponse owns: `Connection: close`, no body for HEAD. */
function rawAnswer(app: FastifyInstance, method: string, url: string, refusal: Refusal): string {
  const { status, headers, body } = envelope(app, url, refusal);
  let head = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Bad Request'}\r\n`;
  for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
  head += `Content-Length: ${Buffer.byteLength(body)}\r\nDate: ${new Date().toUTCString()}\r\nConnection: close\r\n\r\n`;
  return method === 'HEAD' ? head : head + body;
}

/** How long a refused connection may still deliver what the client sent after it before it is dropped. */
const LINGER_MS = 1000;

/** Writes `answer` and closes: at once for a timeout, after a short linger otherwise (see below). */
function answerAndClose(socket: Socket, answer: string, linger: boolean): void {
  answeredSockets.add(socket);
  socket.end(answer, () => {
    // Destroying at once would reset a connection whose client is still sending (the rest of an oversize
    // header, say), and a reset can reach the client before it has read the answer.
    if (!linger) socket.destroy();
    else setTimeout(() => socket.destroy(), LINGER_MS).unref();
  });
}

/** Per listener, the target a refusal is judged by when the request line cannot be read (default `/`). */
const unknownTargets = new WeakMap<FastifyInstance, string>();

/** The in-pod runtime listener serves only runtime routes: its unreadable requests get their (OAuth) envelope. */
export function whenTargetUnknown(app: FastifyInstance, url: string): void {
  unknownTargets.set(app, url);
}

/**
 * Fastify's `clientErrorHandler` (Node's 'clientError'): the request line is read from the bytes that failed
 * to parse when they hold it (a header larger than one read can leave it out: then the listener's
 * `whenTargetUnknown`, by default the platform envelope).
 */
export function answerClientError(this: FastifyInstance, err: ClientError, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  // The parser reports again for every later chunk of a connection already answered; the linger ends it.
  if (answeredSockets.has(socket)) return;
  const internals = socket as Socket & { _httpMessage?: ServerResponse | null; parser?: { incoming?: IncomingMessage | null } | null };
  const pending = internals._httpMessage;
  const timeout = err.code === 'ERR_HTTP_REQUEST_TIMEOUT';
  // A request still arriving whose answer is already out (answered before its body was read: an unknown
  // route, a bad token) has no answer left to give: a second one would reach the client unasked.
  const answeredEarly = !pending && internals.parser?.incoming?.complete === false;
  // Nothing to answer: a connection that never sent a byte, or one whose answer has begun.
  if (!socket.writable || pending?.headersSent || answeredEarly || (timeout && socket.bytesRead === 0)) {
    socket.destroy();
    return;
  }
  const line =
    requestLine(err.rawPacket) ??
    (pending?.req ? { method: pending.req.method ?? 'GET', url: pending.req.url ?? '/' } : { method: 'GET', url: unknownTargets.get(this) ?? '/' });
  answerAndClose(socket, rawAnswer(this, line.method, line.url, clientRefusal(err)), !timeout);
}

/** Node's 'connect' event (a CONNECT request): this is not a proxy. Without a listener Node drops the socket. */
export function answerConnect(app: FastifyInstance, request: IncomingMessage, socket: Socket): void {
  answerAndClose(
    socket,
    rawAnswer(app, 'CONNECT', request.url ?? '/', { status: 400, description: 'CONNECT is not supported: this service is not a proxy.' }),
    true,
  );
}

/** Node's 'checkExpectation' event (an `Expect` other than 100-continue): 417, where Node sends no body. */
export function answerExpectation(app: FastifyInstance, request: IncomingMessage, response: ServerResponse): void {
  const { status, headers, body } = envelope(app, request.url ?? '/', {
    status: 417,
    description: 'The Expect header asks for something this service does not do.',
  });
  // The body the client may have sent after its Expect is not read: close rather than parse it as a request.
  response.writeHead(status, { ...headers, 'Content-Length': Buffer.byteLength(body), Connection: 'close' });
  response.end(body);
}

/**
 * RFC 9112 §6.1: a request with a Transfer-Encoding whose last coding is not chunked has no knowable length;
 * answer 400 and close. Node reads such a body until the connection ends, yet answered with keep-alive, so
 * the client's next request on it vanished into the body.
 */
export function unframedBody(request: IncomingMessage): boolean {
  const coding = request.headers['transfer-encoding'];
  return coding !== undefined && !/(?:^|,)[ \t]*chunked[ \t]*$/i.test(coding);
}

export function answerUnframedBody(app: FastifyInstance, request: IncomingMessage, response: ServerResponse): void {
  const { status, headers, body } = envelope(app, request.url ?? '/', { status: 400, description: 'Transfer-Encoding must end with chunked.' });
  response.writeHead(status, { ...headers, 'Content-Length': Buffer.byteLength(body), Connection: 'close' });
  response.end(body);
}
