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
  // Names sent with an empty value: sent (a repeat is still a repeat) but not kept. Rare, so made on demand.
  let sentEmpty: Set<string> | undefined;
  // By index, not split: no array of pairs per request (the token endpoint's hot path, bench token-endpoint).
  for (let start = 0; start <= encoded.length;) {
    let end = encoded.indexOf('&', start);
    if (end < 0) end = encoded.length;
    if (end > start) {
      const eq = encoded.indexOf('=', start);
      const named = eq >= 0 && eq < end;
      const name = decodeFormComponent(encoded.slice(start, named ? eq : end));
      const value = named ? decodeFormComponent(encoded.slice(eq + 1, end)) : '';
      if (name in out || sentEmpty?.has(name) === true) {
        if (!joined.includes(name)) throw withoutStack(() => new RepeatedParameter(name));
        if (value !== '') out[name] = name in out ? `${out[name]} ${value}` : value;
      } else if (value !== '') out[name] = value;
      else (sentEmpty ??= new Set()).add(name);
    }
    start = end + 1;
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
