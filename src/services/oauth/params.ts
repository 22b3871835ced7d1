// Form and query parameters of the OAuth endpoints. RFC 6749 §3.1 and §3.2: a parameter sent more than once
// is an error, and a parameter sent with an empty value counts as omitted.

import { withoutStack } from '../../errors.js';

export type Params = Readonly<Record<string, string>>;

export class RepeatedParameter extends Error {
  constructor(readonly parameter: string) {
    super(`The parameter "${parameter}" was sent more than once.`);
  }
}

/** Parses `a=1&b=2` into single values; throws RepeatedParameter for a repeated name. */
export function singleValued(encoded: string): Params {
  const out: Record<string, string> = Object.create(null);
  // Node decodes a bad percent escape (`%E0%A4%A`) by catching a URIError, whose stack was most of the cost
  // of such a request; the parse itself is lenient and never throws.
  for (const [name, value] of withoutStack(() => new URLSearchParams(encoded))) {
    if (name in out) throw new RepeatedParameter(name);
    if (value !== '') out[name] = value;
  }
  return out;
}

/** The query string of a request URL (without the leading `?`). */
export const queryOf = (url: string): string => {
  const at = url.indexOf('?');
  return at < 0 ? '' : url.slice(at + 1);
};
