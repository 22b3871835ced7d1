// Body parsing shared by every route family: JSON, other media types, and schema-error messages, all failing
// without stack traces. A malformed body is an answer, not a fault: the framework's own parser, media-type
// check and formatter build their errors with a captured stack (a JSON SyntaxError, a FastifyError, an Error
// per schema failure), which made a bad request cost ~1.5x the CPU of a good one. Nothing logs or renders
// those stacks; the errors keep the framework's codes, so src/http/render-error.ts maps them as before.
import { errorCodes, type FastifyInstance, type FastifyRequest } from 'fastify';
import { excerpt, withoutStack } from '../errors.js';

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

/** docs/contracts.md §8: JSON bodies nest at most this deep (the body's own object or array is level 1). */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether a JSON text opens more than `max` objects or arrays inside one another. A value nested 10,000 deep
 * parses, but later fails to serialize (a RangeError on every poll that picked it), so it is refused before
 * anything can store it. One pass over the text, skipping strings with indexOf (brackets in a string do not
 * count): a few hundred nanoseconds for a usual body, no allocation. Only the depth is judged here; a text
 * that is not JSON is left to the parser.
 */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0, n = text.length; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: its closing quote is the next one not escaped by an odd run of backslashes.
      for (;;) {
        const close = text.indexOf('"', i + 1);
        if (close < 0) return false;
        let slashes = 0;
        while (text.charCodeAt(close - 1 - slashes) === 0x5c) slashes++;
        i = close;
        if (slashes % 2 === 0) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

/** The refusal of a too-deep body: a 400 the renderers map like the framework's own JSON errors. */
export interface TooDeepError extends Error {
  code: 'JSON_TOO_DEEP';
  statusCode: 400;
}

function tooDeep(): TooDeepError {
  // Built without the Error constructor, as schemaErrorFormatter below: nothing reads a stack of it.
  const error = Object.create(Error.prototype) as TooDeepError;
  error.message = `The request body is nested deeper than ${MAX_JSON_DEPTH} levels.`;
  error.code = 'JSON_TOO_DEEP';
  error.statusCode = 400;
  return error;
}

/**
 * The framework's JSON parser (prototype-poisoning checks included) with stackless failures. `emptyIsNoBody`:
 * an empty body reads as no body, for routes whose body is optional (clients send the JSON content type on
 * bodiless calls); otherwise it is the framework's empty-JSON error.
 */
function jsonParser(scope: FastifyInstance, emptyIsNoBody: boolean): JsonParser {
  const parse = scope.getDefaultJsonParser('error', 'error');
  return (request, body, done) => {
    // An unknown route or a wrong method parses nothing: it answers 404 in its family's envelope whatever
    // the body, as rejectOtherMediaTypes below does (an empty JSON body was 400 invalid_request before routing).
    if (request.is404 || (emptyIsNoBody && body === '')) return done(null, undefined);
    if (unclosed(body))
      return done(
        withoutStack(() => new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY()),
        undefined,
      );
    // Nesting past 64 takes 65 openers and 65 closers: a shorter body cannot, and is not scanned.
    if (body.length > 2 * MAX_JSON_DEPTH && nestedDeeperThan(body, MAX_JSON_DEPTH)) return done(tooDeep(), undefined);
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
    done(
      withoutStack(() => new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE()),
      undefined,
    );
  });
}

interface SchemaProblem {
  instancePath?: string;
  message?: string;
}

/** docs/contracts.md §1: a validation failure reports at most this many problems. */
export const MAX_PROBLEMS = 10;
/** A problem's path names keys the client sent: a long one is cut, so that 10 problems stay small. */
const MAX_PATH = 128;
const MAX_MESSAGE = 256;

/**
 * The framework's schema-error message (`body/username must be string, ...`) on an Error made without its
 * constructor: even with stack capture off, constructing one cost ~2 us per bad request in a profile, and
 * nothing here reads more than its message and the fields the framework adds. At most 10 problems, each cut
 * short, then how many more there were: a body with 40,000 unknown keys got a 1.7 MB answer before.
 */
export function schemaErrorFormatter(problems: SchemaProblem[], dataVar: string): Error {
  const error = Object.create(Error.prototype) as Error;
  const shown = problems.length > MAX_PROBLEMS ? problems.slice(0, MAX_PROBLEMS) : problems;
  let message = shown.map((p) => `${dataVar}${excerpt(p.instancePath ?? '', MAX_PATH)} ${excerpt(p.message ?? '', MAX_MESSAGE)}`).join(', ');
  if (problems.length > shown.length) message += ` (and ${problems.length - shown.length} more problems)`;
  error.message = message;
  return error;
}
