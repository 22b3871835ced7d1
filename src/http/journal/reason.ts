// The code and plain-words reason of a refusal, read from the error where it was decided (DESIGN principle 11).
// A throw site that knows more than its wire description (which registered URIs, which scopes the token has)
// sets `reason` with `.because()`; otherwise the wire description already says it.
import type { EmulatorError } from '../../errors.js';
import { DeactivatedUser, HtmlError, OAuthError, PlatformError, Unauthenticated } from '../../errors.js';

export function errorCodeOf(err: EmulatorError): string {
  if (err instanceof OAuthError) return err.error;
  if (err instanceof PlatformError) return err.errorName;
  if (err instanceof Unauthenticated) return 'unauthenticated';
  if (err instanceof DeactivatedUser) return 'invalid_token';
  if (err instanceof HtmlError) return err.title.toLowerCase().replace(/[^a-z0-9]+/g, '_');
  return err.name;
}

function describeParameters(parameters: Record<string, unknown>): string {
  // Most refusals have none: no array of entries for them.
  let empty = true;
  for (const _ in parameters) {
    empty = false;
    break;
  }
  if (empty) return '';
  const entries = Object.entries(parameters);
  if (entries.length === 0) return '';
  return ` (${entries.map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`).join(', ')})`;
}

export function reasonOf(err: EmulatorError): string {
  if (err.reason !== undefined) return err.reason;
  if (err instanceof OAuthError) return err.errorDescription;
  if (err instanceof PlatformError) return `${err.errorName}: ${err.errorDescription}${describeParameters(err.parameters)}`;
  if (err instanceof DeactivatedUser) return err.errorDescription;
  if (err instanceof HtmlError) return `${err.title}: ${err.detail}`;
  return err.message;
}
