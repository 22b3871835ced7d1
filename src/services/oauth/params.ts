// Form and query parameters of the OAuth endpoints. RFC 6749 §3.1 and §3.2: a parameter sent more than once
// is an error, and a parameter sent with an empty value counts as omitted. One exception (docs/contracts.md §10): in a
// form, `scope` given twice (`scope=a&scope=b`, as some clients encode a list) is one scope list, joined with spaces.

import { withoutStack } from '../../errors.js';

export type Params = Readonly<Record<string, string>>;

export class RepeatedParameter extends Error {
  constructor(readonly parameter: string) {
    super(`The parameter "${parameter}" was sent more than once.`);
  }
}

/**
 * Parses `a=1&b=2` into single values; throws RepeatedParameter for a repeated name, except the names in
 * `joined`, whose values are joined with a space in the order given.
 */
export function singleValued(encoded: string, joined: readonly string[] = []): Params {
  const out: Record<string, string> = Object.create(null);
  const seen = new Set<string>();
  for (const pair of encoded.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decodeFormComponent(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? '' : decodeFormComponent(pair.slice(eq + 1));
    if (seen.has(name)) {
      if (!joined.includes(name)) throw withoutStack(() => new RepeatedParameter(name));
      if (value !== '') out[name] = name in out ? `${out[name]} ${value}` : value;
      continue;
    }
    seen.add(name);
    if (value !== '') out[name] = value;
  }
  return out;
}

/** Form fields that may be given more than once, joined with spaces (docs/contracts.md §10). */
export const JOINED_FORM_FIELDS: readonly string[] = ['scope'];

/**
 * One name or value of application/x-www-form-urlencoded, as the WHATWG URL standard (and so URLSearchParams)
 * decodes it: `+` is a space, each `%XX` is a byte, a `%` without two hex digits stays as it is, and the bytes
 * are read as UTF-8 with U+FFFD for what is not. Written out because Node's own decoder handles a bad escape
 * by catching a URIError, which made a request with one cost ~1.2x a good token request.
 */
export function decodeFormComponent(text: string): string {
  const spaced = text.includes('+') ? text.replaceAll('+', ' ') : text;
  if (!spaced.includes('%')) return spaced;
  const bytes = Buffer.from(spaced, 'utf8');
  let length = 0;
  for (let i = 0; i < bytes.length; i++, length++) {
    const high = bytes[i] === 0x25 && i + 2 < bytes.length ? hexValue(bytes[i + 1]!) : -1;
    const low = high >= 0 ? hexValue(bytes[i + 2]!) : -1;
    if (low >= 0) {
      bytes[length] = high * 16 + low;
      i += 2;
    } else {
      bytes[length] = bytes[i]!;
    }
  }
  return bytes.toString('utf8', 0, length);
}

function hexValue(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x37;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57;
  return -1;
}

/** The query string of a request URL (without the leading `?`). */
export const queryOf = (url: string): string => {
  const at = url.indexOf('?');
  return at < 0 ? '' : url.slice(at + 1);
};
