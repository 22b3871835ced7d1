// The catalog of failures. Domain code throws these; one renderer per envelope (src/http/render-error.ts)
// turns them into bytes. Nothing else writes an error body.

/**
 * Base of every failure the service reports on purpose. These are answers, not faults, and carry no stack
 * trace (nothing logs or renders one). They are Errors by prototype, not by construction: V8's Error
 * constructor cost ~1.5 us per rejected request even with stack capture off (a third of what separated a bad
 * request's CPU from a good one's), so `instanceof Error` holds, which the framework and `throw` rules need,
 * while the constructor below only sets fields.
 */
export abstract class EmulatorError implements Error {
  abstract readonly status: number;
  readonly message: string;
  declare readonly stack?: string;
  /** Extra response headers, e.g. WWW-Authenticate. */
  headers: Record<string, string> = {};
  /**
   * What was expected and what came, in plain words, for the journal and the log line of the refusal
   * (DESIGN principle 11). Never a secret value. When unset, the wire description serves (journal/reason.ts).
   */
  reason?: string;

  constructor(message: string) {
    this.message = message;
  }

  get name(): string {
    return this.constructor.name;
  }

  /** Sets the plain-words reason where the refusal is decided: `throw invalidGrant('...').because('...')`. */
  because(reason: string): this {
    this.reason = reason;
    return this;
  }
}
Object.setPrototypeOf(EmulatorError.prototype, Error.prototype);

/**
 * Runs `make` with stack capture off: for errors that are expected answers (a malformed body, a bad percent
 * escape), built by code that is not ours, whose stacks nothing shows. A stack costs ~5 us per error.
 */
export function withoutStack<T>(make: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return make();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** The longest input an error description quotes as it is (docs/contracts.md §1). */
export const QUOTE_MAX = 64;

/**
 * An input value as an error description may quote it (docs/contracts.md §1): in double quotes, with JSON's escapes (a
 * line break or a quote in it cannot forge the message), cut to its first 64 characters and `…` when longer.
 * Never pass a credential: descriptions name a secret's field, never its value.
 */
export function quote(value: string, max = QUOTE_MAX): string {
  if (value.length <= max) return JSON.stringify(value);
  return `${JSON.stringify(excerpt(value, max).slice(0, -1)).slice(0, -1)}…"`;
}

/** `value` as it is when at most `max` characters, else its start and `…` (never half a surrogate pair). */
export function excerpt(value: string, max: number): string {
  if (value.length <= max) return value;
  const high = value.charCodeAt(max - 1);
  return `${value.slice(0, high >= 0xd800 && high <= 0xdbff ? max - 1 : max)}…`;
}

// ---- Platform API envelope: {errorCode, errorName, errorDescription, errorInstanceId, parameters} ----

export const platformStatus = {
  INVALID_ARGUMENT: 400,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  REQUEST_ENTITY_TOO_LARGE: 413,
  INTERNAL: 500,
  /** A function that did not answer in time (QueryTimeExceededLimit, docs/functions.md). */
  TIMEOUT: 500,
} as const;
export type PlatformErrorCode = keyof typeof platformStatus;

const platformDescriptions: Record<PlatformErrorCode, string> = {
  INVALID_ARGUMENT: 'The provided value for a parameter was invalid.',
  PERMISSION_DENIED: 'The provided token does not have permission to take this action.',
  NOT_FOUND: 'The requested resource or argument was not found.',
  CONFLICT: 'The request conflicts with the current state of the resource.',
  REQUEST_ENTITY_TOO_LARGE: 'The request body is too large.',
  INTERNAL: 'An internal error occurred.',
  TIMEOUT: 'Time limits were exceeded.',
};

export class PlatformError extends EmulatorError {
  readonly status: number;
  constructor(
    readonly errorCode: PlatformErrorCode,
    readonly errorName: string,
    readonly parameters: Record<string, unknown> = {},
    readonly errorDescription: string = platformDescriptions[errorCode],
    /** The HTTP layer's refusals keep their own status (414, 431, ...) beside INVALID_ARGUMENT. */
    status: number = platformStatus[errorCode],
  ) {
    super(`${errorCode} ${errorName}`);
    this.status = status;
  }
}

export const permissionDenied = (errorName: string, parameters: Record<string, unknown> = {}) => new PlatformError('PERMISSION_DENIED', errorName, parameters);
export const notFound = (errorName: string, parameters: Record<string, unknown> = {}) => new PlatformError('NOT_FOUND', errorName, parameters);
export const invalidArgument = (errorName: string, parameters: Record<string, unknown> = {}, description?: string) =>
  new PlatformError('INVALID_ARGUMENT', errorName, parameters, description);
export const conflict = (errorName: string, parameters: Record<string, unknown> = {}) => new PlatformError('CONFLICT', errorName, parameters);

// ---- OAuth envelope: {error, error_description}; token endpoint and compute-module routes ----

export class OAuthError extends EmulatorError {
  constructor(
    readonly error: string,
    readonly errorDescription: string,
    readonly status: number,
  ) {
    super(`${error}: ${errorDescription}`);
  }
}

export const invalidRequest = (description: string) => new OAuthError('invalid_request', description, 400);
export const invalidClient = (description = 'Client authentication failed.', usedBasic = false) => {
  const err = new OAuthError('invalid_client', description, 401);
  if (usedBasic) err.headers['WWW-Authenticate'] = 'Basic realm="platform"';
  return err;
};
export const invalidGrant = (description: string) => new OAuthError('invalid_grant', description, 400);
export const invalidScope = (description: string) => new OAuthError('invalid_scope', description, 400);
export const unauthorizedClient = (description: string) => new OAuthError('unauthorized_client', description, 400);
export const unsupportedGrantType = (description: string) => new OAuthError('unsupported_grant_type', description, 400);

// Compute-module runtime and job routes (docs/contracts.md §6) share the OAuth envelope.
export const resourceNotFound = (description: string) => new OAuthError('not_found', description, 404);
export const invalidModuleAuthToken = () => new OAuthError('invalid_module_auth_token', 'The Module-Auth-Token header is missing or wrong.', 401);
export const jobNotReady = (description: string) => new OAuthError('job_not_ready', description, 409);
export const jobFailed = (description: string) => new OAuthError('job_failed', description, 409);
export const jobCanceled = (description: string) => new OAuthError('job_canceled', description, 409);
export const jobTimeout = (description: string) => new OAuthError('job_timeout', description, 504);
export const deployedAppInactive = (description: string) => new OAuthError('deployed_app_inactive', description, 409);
export const temporarilyUnavailable = (description: string) => new OAuthError('temporarily_unavailable', description, 503);
/** A runtime's queue holds `compute_modules.max_queued_jobs` jobs already (docs/contracts.md §8). */
export const queueFull = (description: string) => new OAuthError('queue_full', description, 429);

// ---- Bearer failures (their own fixed envelopes) ----

/** Missing, unknown, revoked or expired bearer token: 401 {message}. */
export class Unauthenticated extends EmulatorError {
  readonly status = 401;
  constructor() {
    super('Requires authentication');
    this.headers['WWW-Authenticate'] = 'Bearer realm="platform"';
  }
}

/** A valid token whose user has been deactivated: 401 {error: invalid_token, error_description}. */
export class DeactivatedUser extends EmulatorError {
  readonly status = 401;
  constructor(readonly errorDescription = 'The user of this token has been deactivated.') {
    super('invalid_token');
    this.headers['WWW-Authenticate'] = 'Bearer error="invalid_token"';
  }
}

// ---- HTML envelope: the authorize page and its callback ----

export class HtmlError extends EmulatorError {
  readonly status = 400;
  constructor(
    readonly title: string,
    readonly detail: string,
  ) {
    super(`${title}: ${detail}`);
  }
}

// ---- The store is unreachable (PostgreSQL down): 503 in the route family's envelope ----

/** Thrown by a store whose database cannot be reached; rendered per family by src/http/render-error.ts. */
export class StoreUnavailable extends EmulatorError {
  readonly status = 503;
  constructor(readonly errorDescription = "The emulator's database is unreachable; retry shortly.") {
    super('store unavailable');
    this.reason = errorDescription;
    this.headers['Retry-After'] = '1';
  }
}

/**
 * The database kept choosing this request as the victim of a deadlock or serialization conflict, past every
 * retry (src/store/postgres/db.ts): a 503 to retry, as when the store is away, never a 500.
 */
export class StoreContended extends StoreUnavailable {
  constructor() {
    super("The emulator's database is busy with conflicting work (a reset, or the same rows changed at once); retry shortly.");
  }
}

/** The server is closing: new requests answer 503 in their family's envelope, as when the store is away. */
export class ShuttingDown extends StoreUnavailable {
  constructor() {
    super('The emulator is shutting down; retry once it is back (or on another instance).');
    this.headers.Connection = 'close';
  }
}

// ---- Injected faults (control route POST /_emulate/platform/faults; src/http/faults.ts) ----

/** An answer a test suite armed on purpose; its body is the armed one or the route family's envelope. */
export class InjectedFault extends EmulatorError {
  constructor(
    readonly status: number,
    reason: string,
  ) {
    super(`injected fault ${status}`);
    this.reason = reason;
  }
}
