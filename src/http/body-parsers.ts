// Body parsing shared by every route family: JSON, other media types, and schema-error messages, all failing
// without stack traces. A malformed body is an answer, not a fault: the framework's own parser, media-type
// check and formatter build their errors with a captured stack (a JSON SyntaxError, a FastifyError, an Error
// per schema failure), which made a bad request cost ~1.5x the CPU of a good one. Nothing logs or renders
// those stacks; the errors keep the framework's codes, so src/http/render-error.ts maps them as before.
import { errorCodes, type FastifyInstance, type FastifyRequest } from 'fastify';
import { withoutStack } from '../errors.js';

type Done = (err: Error | null, body?: unknown) => void;
type JsonParser = (request: FastifyRequest, body: string, done: Done) => void;

const JSON_SPACE = new Set([' ', '\t', '\n', '\r']);
const CLOSER: Record<string, string> = { '{': '}', '[': ']' };

/**
 * Whether a body that opens an object or array fails to close it, as a truncated body does: JSON.parse would
 * reject it too, but V8 spends ~5 us describing where (it builds a script object for the message), more than
 * parsing a good body costs. Exact, never a guess: a JSON text that starts with `{` ends with `}`.
 */
function unclosed(body: string): boolean {
  let start = 0;
  let end = body.length - 1;
  while (start <= end && JSON_SPACE.has(body[start]!)) start++;
  while (end > start && JSON_SPACE.has(body[end]!)) end--;
  const closer = CLOSER[body[start] ?? ''];
  return closer !== undefined && (end === start || body[end] !== closer);
}

/**
 * The framework's JSON parser (prototype-poisoning checks included) with stackless failures. `emptyIsNoBody`:
 * an empty body reads as no body, for routes whose body is optional (clients send the JSON content type on
 * bodiless calls); otherwise it is the framework's empty-JSON error.
 */
function jsonParser(scope: FastifyInstance, emptyIsNoBody: boolean): JsonParser {
  const parse = scope.getDefaultJsonParser('error', 'error');
  return (request, body, done) => {
    if (emptyIsNoBody && body === '') return done(null, undefined);
    if (unclosed(body)) return done(withoutStack(() => new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY()), undefined);
    // The framework's parser answers synchronously; its outcome is kept so that `done`, which runs the
    // handler, runs with stack capture back on.
    let outcome: [Error | null, unknown] = [null, undefined];
    withoutStack(() => parse(request, body, (err: Error | null, value?: unknown) => void (outcome = [err, value])));
    done(...outcome);
  };
}

/** Replaces the scope's `application/json` parser (inherited from the root or the framework's default). */
export function useJsonBodies(scope: FastifyInstance, { emptyIsNoBody = false } = {}): void {
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, jsonParser(scope, emptyIsNoBody) as never);
}

/**
 * Media types the scope has no parser for: 415 as the framework answers, without its stack. The body is read
 * first (within the body limit), so that the connection can stay open (src/http/keep-alive.ts). Unknown routes
 * parse nothing: they answer 404 whatever the body.
 */
export function rejectOtherMediaTypes(scope: FastifyInstance): void {
  scope.addContentTypeParser('*', { parseAs: 'buffer' }, (request, _body, done) => {
    if (request.is404) return done(null, undefined);
    done(withoutStack(() => new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE()), undefined);
  });
}

interface SchemaProblem {
  instancePath?: string;
  message?: string;
}

/**
 * The framework's schema-error message (`body/username must be string, ...`) on an Error made without its
 * constructor: even with stack capture off, constructing one cost ~2 us per bad request in a profile, and
 * nothing here reads more than its message and the fields the framework adds.
 */
export function schemaErrorFormatter(problems: SchemaProblem[], dataVar: string): Error {
  const error = Object.create(Error.prototype) as Error;
  error.message = problems.map((p) => `${dataVar}${p.instancePath ?? ''} ${p.message ?? ''}`).join(', ');
  return error;
}
