// The renderers: one per envelope of docs/contracts.md §1, and the only places that write an error body.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  type DeactivatedUser,
  EmulatorError,
  HtmlError,
  OAuthError,
  PlatformError,
  StoreUnavailable,
  ShuttingDown,
  Unauthenticated,
  excerpt,
  invalidArgument,
  invalidRequest,
  notFound,
  platformStatus,
  quote,
  resourceNotFound,
} from '../errors.js';
import { randomUuid } from '../ids.js';
import { errorFamily } from './route-config.js';
import type { PathPolicies } from './path-policy.js';
import { errorPage } from './html.js';
import { keepAliveAfterReadBody } from './keep-alive.js';
import { answeredSockets } from './answered-sockets.js';
import { jsonString, type ErrorLineWriter } from './error-log.js';
import { fieldPath, pointerSegments } from '../field-path.js';
import { sentMethod } from '../head-requests.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Logs a platform error's errorInstanceId (src/http/error-log.ts). */
    logPlatformError: ErrorLineWriter;
  }
}

/**
 * docs/contracts.md §1: no error answer is larger than 16 KiB. Each site quotes input short (src/errors.ts `quote`);
 * this is the net under them all, for parameters and descriptions that carry a value the client sent.
 */
const DESCRIPTION_MAX = 4096;
const PARAMETER_MAX = 1024;

function boundedParameters(parameters: Record<string, unknown>): Record<string, unknown> {
  let out = parameters;
  for (const key in parameters) {
    const value = parameters[key];
    if (typeof value === 'string' && value.length > PARAMETER_MAX) {
      if (out === parameters) out = { ...parameters };
      out[key] = excerpt(value, PARAMETER_MAX);
    }
  }
  return out;
}

export function renderPlatform(reply: FastifyReply, err: PlatformError): FastifyReply {
  const errorInstanceId = randomUuid();
  // docs/contracts.md §1: every errorInstanceId is logged, at the default level, so a user can find the line an SDK
  // error points to: the journal hook writes it on the refusal's one line, with the reason.
  reply.request.refusal = err;
  reply.request.errorInstanceId = errorInstanceId;
  return reply.code(err.status).headers(err.headers).type('application/json').send(platformBody(err, errorInstanceId));
}

/**
 * The bytes JSON.stringify would give for the body, built from cached literals (src/http/error-log.ts): a bad
 * request's body cost more to serialize than the rest of its answer. The id is a UUID: nothing to escape.
 */
function platformBody(err: PlatformError, errorInstanceId: string): string {
  let parameters = '{}';
  for (const _ in err.parameters) {
    parameters = JSON.stringify(boundedParameters(err.parameters));
    break;
  }
  return (
    `{"errorCode":${jsonString(err.errorCode)},"errorName":${jsonString(err.errorName)},` +
    `"errorDescription":${jsonString(excerpt(err.errorDescription, DESCRIPTION_MAX))},"errorInstanceId":"${errorInstanceId}","parameters":${parameters}}`
  );
}

/** An answer written without the framework (the fast lanes, src/http/fast-lane.ts): headers as name-value pairs. */
export interface PlainAnswer {
  status: number;
  /** Lower-case names, in the order the route's renderer sets them (before the content type and length). */
  headers: readonly string[];
  body: string;
}

/** Name-value pairs, names in lower case, then `after` (a loop: refusals are a hot path, bench bad-input). */
function pairsOf(headers: Readonly<Record<string, string>>, after: readonly string[] = []): readonly string[] {
  let pairs: string[] | undefined;
  for (const name in headers) (pairs ??= []).push(name.toLowerCase(), headers[name]!);
  return pairs === undefined ? after : pairs.concat(after);
}
const NO_STORE: readonly string[] = ['cache-control', 'no-store', 'pragma', 'no-cache'];

/**
 * An OAuth refusal as both its renderer and the token fast lane write it. The body is what JSON.stringify of
 * {error, error_description} gives, from cached string literals: most refusals repeat a few descriptions.
 */
export function oauthAnswer(err: OAuthError): PlainAnswer {
  return {
    status: err.status,
    headers: pairsOf(err.headers, NO_STORE),
    body: `{"error":${jsonString(err.error)},"error_description":${jsonString(excerpt(err.errorDescription, DESCRIPTION_MAX))}}`,
  };
}

function sendPlain(reply: FastifyReply, answer: PlainAnswer): FastifyReply {
  reply.code(answer.status);
  for (let i = 0; i < answer.headers.length; i += 2) reply.header(answer.headers[i]!, answer.headers[i + 1]!);
  return reply.type('application/json').send(answer.body);
}

export function renderOAuth(reply: FastifyReply, err: OAuthError): FastifyReply {
  reply.request.refusal = err; // read by the journal hook (src/http/journal/hook.ts)
  return sendPlain(reply, oauthAnswer(err));
}

/** The 401 body, serialized once: it never changes, and most bad requests end here. */
const UNAUTHENTICATED_BODY = JSON.stringify({ message: 'Requires authentication' });

/** A bearer refusal as both its renderer and the getCurrent fast lane write it. */
export function bearerAnswer(err: Unauthenticated | DeactivatedUser): PlainAnswer {
  // The common 401s are shared frozen values (src/http/bearer-refusals.ts): their answers are made once.
  const known = answered.get(err);
  if (known !== undefined) return known;
  const answer = plainBearer(err);
  if (Object.isFrozen(err)) answered.set(err, answer);
  return answer;
}
const answered = new WeakMap<EmulatorError, PlainAnswer>();

function plainBearer(err: Unauthenticated | DeactivatedUser): PlainAnswer {
  const body = err instanceof Unauthenticated ? UNAUTHENTICATED_BODY : JSON.stringify({ error: 'invalid_token', error_description: err.errorDescription });
  return { status: 401, headers: pairsOf(err.headers), body };
}

export function renderBearer(reply: FastifyReply, err: Unauthenticated | DeactivatedUser): FastifyReply {
  reply.request.refusal = err;
  return sendPlain(reply, bearerAnswer(err));
}

export function renderHtml(reply: FastifyReply, err: HtmlError, status = err.status): FastifyReply {
  reply.request.refusal = err;
  return reply
    .code(status)
    .header('X-Frame-Options', 'DENY')
    .header('Content-Security-Policy', "frame-ancestors 'none'")
    .type('text/html; charset=utf-8')
    .send(errorPage(err.title, err.detail));
}

/** Turns an error of the framework (bad JSON, body too large, schema validation) into the URL's family. */
function fromFramework(err: FastifyError, url: string, policies: PathPolicies): EmulatorError | undefined {
  const status = err.statusCode;
  if (status === undefined || status >= 500) return undefined;
  const tooLarge = status === 413;
  const detail = describeFrameworkError(err);
  switch (errorFamily(url, policies)) {
    case 'platform':
      return tooLarge
        ? new PlatformError('REQUEST_ENTITY_TOO_LARGE', 'RequestEntityTooLarge', {}, detail)
        : invalidArgument('InvalidArgument', err.validation ? { field: validationField(err) } : {}, detail);
    case 'oauth': {
      const e = invalidRequest(detail);
      return tooLarge ? new OAuthError(e.error, e.errorDescription, 413) : e;
    }
    case 'html':
      return new HtmlError('Bad request', detail);
  }
}

const FIELD_MAX = 256;

/** The field the first schema problem is about: `secrets.token`, `configuration.type`; `body` for the whole body. */
function validationField(err: FastifyError): string {
  const first = err.validation?.[0];
  const context = err.validationContext ?? 'body';
  if (!first) return context;
  const segments = pointerSegments(first.instancePath);
  const params = first.params as Record<string, unknown>;
  if (first.keyword === 'required' && typeof params.missingProperty === 'string') segments.push(params.missingProperty);
  if (first.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') segments.push(params.additionalProperty);
  // The path is made of keys the client sent: cut, as a key may be 600 KB long.
  return segments.length > 0 ? excerpt(fieldPath(segments), FIELD_MAX) : context;
}

/** A body of a media type the route takes no parser for (also the token fast lane's words for a JSON body). */
export const UNSUPPORTED_MEDIA_TYPE = 'Unsupported content type.';

function describeFrameworkError(err: FastifyError): string {
  if (err.validation) return `Invalid request ${err.validationContext ?? 'body'}: ${err.message}`;
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'The request body is larger than the limit.';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return UNSUPPORTED_MEDIA_TYPE;
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is empty but the content type is JSON.';
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return 'The request body is not valid JSON.';
    case 'JSON_TOO_DEEP':
      return err.message;
    default:
      return err instanceof SyntaxError ? 'The request body is not valid JSON.' : 'The request is malformed.';
  }
}

/**
 * The database is unreachable: 503 in the family's envelope, the same words everywhere and no driver detail.
 * The platform envelope has no 503 code of its own (docs/contracts.md §1), so it keeps INTERNAL and names it.
 */
function renderUnavailable(reply: FastifyReply, err: StoreUnavailable): FastifyReply {
  switch (errorFamily(reply.request.url, reply.server.pathPolicies)) {
    case 'oauth':
      return renderOAuth(reply, Object.assign(new OAuthError('temporarily_unavailable', err.errorDescription, 503), { headers: err.headers }));
    case 'html':
      return renderHtml(reply.headers(err.headers), new HtmlError('Temporarily unavailable', err.errorDescription), 503);
    default: {
      const errorInstanceId = randomUuid();
      // Logged by the journal hook on the refusal's one line, with its errorInstanceId (docs/contracts.md §1).
      reply.request.refusal = err;
      reply.request.errorInstanceId = errorInstanceId;
      return reply.code(503).headers(err.headers).type('application/json').send({
        errorCode: 'INTERNAL',
        errorName: 'ServiceUnavailable',
        errorDescription: err.errorDescription,
        errorInstanceId,
        parameters: {},
      });
    }
  }
}

export function render(reply: FastifyReply, err: EmulatorError): FastifyReply {
  if (err instanceof StoreUnavailable) return renderUnavailable(reply, err);
  if (err instanceof PlatformError) return renderPlatform(reply, err);
  if (err instanceof OAuthError) return renderOAuth(reply, err);
  if (err instanceof HtmlError) return renderHtml(reply, err);
  return renderBearer(reply, err as Unauthenticated | DeactivatedUser);
}

/** An unexpected exception: 500 in the family's envelope, with a logged id and no detail in the body. */
function renderInternal(request: FastifyRequest, reply: FastifyReply, err: unknown): FastifyReply {
  const errorInstanceId = randomUuid();
  request.log.error({ errorInstanceId, err }, 'unexpected error');
  switch (errorFamily(request.url, request.server.pathPolicies)) {
    case 'oauth':
      return renderOAuth(reply, new OAuthError('server_error', `An internal error occurred (errorInstanceId ${errorInstanceId}).`, 500));
    case 'html':
      return renderHtml(reply, new HtmlError('Something went wrong', `An internal error occurred (errorInstanceId ${errorInstanceId}).`), 500);
    default:
      return reply.code(platformStatus.INTERNAL).type('application/json').send({
        errorCode: 'INTERNAL',
        errorName: 'Internal',
        errorDescription: 'An internal error occurred.',
        errorInstanceId,
        parameters: {},
      });
  }
}

export function installErrorRendering(app: FastifyInstance, logPlatformError: ErrorLineWriter): void {
  app.decorate('logPlatformError', logPlatformError);
  // Returns nothing: a returned reply is a thenable, which the framework then waits on (a promise per refusal).
  app.setErrorHandler((err: FastifyError | EmulatorError, request, reply): void => {
    // Answered and closed by the HTTP layer already (a 408 while the body was arriving): nothing to render or log.
    if (answeredSockets.has(request.raw.socket)) return void reply.code(408).send();
    keepAliveAfterReadBody(request, reply);
    if (err instanceof EmulatorError) return void render(reply, err);
    const mapped = fromFramework(err, request.url, request.server.pathPolicies);
    if (mapped) return void render(reply, mapped);
    renderInternal(request, reply, err);
  });
  // Closing: what arrives now (a request pipelined or on a kept-alive connection) answers 503 in its family's
  // envelope, not the framework's own body (return503OnClosing is off: src/http/server-options.ts). The first
  // preClose hook, as this runs before any route or service registers its own.
  let closing = false;
  app.addHook('preClose', async () => void (closing = true));
  // Callback style: an async hook here cost every request a promise and a microtask turn (docs/architecture.md, Hot paths).
  app.addHook('onRequest', (_request, _reply, done) => (closing ? done(new ShuttingDown()) : done()));
  // Unknown routes and wrong methods: 404 in the family's envelope, never the framework's default page.
  app.setNotFoundHandler((request, reply) => render(reply, routeNotFound(request.server.pathPolicies, sentMethod(request.raw), request.url)));
}

/** The longest path a platform 404 names in its parameters. */
const PATH_PARAMETER_MAX = 256;

/** The 404 of a route that does not exist (or not for this method), in the URL's family (docs/contracts.md §1). */
export function routeNotFound(policies: PathPolicies, method: string, url: string): EmulatorError {
  const path = url.split('?', 1)[0]!;
  // Under the OAuth prefix, the sign-in page's paths included: a wrong method there is no page to render.
  const reason = `No route answers ${method} ${excerpt(path, PATH_PARAMETER_MAX)}.`;
  if (errorFamily(url, policies) !== 'platform') return resourceNotFound(`No route ${method} ${quote(path)}.`).because(reason);
  return notFound('NotFound', { path: excerpt(path, PATH_PARAMETER_MAX) }).because(reason);
}
