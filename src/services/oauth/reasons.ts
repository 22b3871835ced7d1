// Wording shared by the refusals' plain-words reasons (DESIGN principle 11). Only names, URIs and scopes are
// quoted here: never a secret, token, code or verifier. A value the request sent is quoted only when it looks
// like a value of its field (docs/oauth.md): a client that joins its form fields with `;` sends
// `client_id=web-app;client_secret=...`, and quoting that value would write the secret into the log.

import { quote as quoteInput } from '../../errors.js';
import { looksLikeFieldValue, redactUrl } from '../../redact.js';

/** `"value"`, cut at `max` characters with `…`: reasons name URIs and scopes, so they may quote longer than errors. */
export const quote = (value: string, max = 200): string => quoteInput(value, max);

/** `"a", "b"` or `none`. */
export function quoteAll(values: readonly string[], none = 'none'): string {
  return values.length === 0 ? none : values.map((v) => quote(v)).join(', ');
}

export const when = (ms: number): string => new Date(ms).toISOString();

/** The characters whose presence the description names: they show fields joined into one value. */
const TELLING = ['=', ';', '&', ' '];

/** The description of a value that is not quoted: its length and the separators it holds. */
export function describeValue(value: string): string {
  const held = TELLING.filter((c) => value.includes(c)).map((c) => JSON.stringify(c));
  const holding =
    held.length === 0 ? 'characters outside letters, digits and _:.@-' : held.length === 1 ? held[0] : `${held.slice(0, -1).join(', ')} and ${held.at(-1)}`;
  return `of ${value.length} characters holding ${holding} (not quoted: it does not look like a value of this field)`;
}

/**
 * `grant_type "x"` when the value looks like one of its field, else `grant_type of 57 characters holding "="
 * and ";" (...)`: the field is named either way, so the reason still says what was refused.
 */
export function named(field: string, value: string): string {
  return looksLikeFieldValue(value) ? `${field} ${quoteInput(value)}` : `${field} ${describeValue(value)}`;
}

/** `"value"` for a field-like value, else its description (for wording that names the field itself). */
export function quoteField(value: string): string {
  return looksLikeFieldValue(value) ? quoteInput(value) : `a value ${describeValue(value)}`;
}

/** `"ghost"` for a field-like value, else `<described as> of 50 characters holding ...` (`with client_id`). */
export function quoteOrDescribe(describedAs: string, value: string): string {
  return looksLikeFieldValue(value) ? quoteInput(value) : `${describedAs} ${describeValue(value)}`;
}

const URI_VALUE = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s;]*$/;

/** A redirect URI as sent, its credential-named query values redacted; described when it does not look like a URI. */
export function quoteUri(value: string): string {
  const redacted = redactUrl(value);
  return URI_VALUE.test(redacted) ? quote(redacted) : `a value ${describeValue(value)}`;
}
