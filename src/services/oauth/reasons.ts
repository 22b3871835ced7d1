// Wording shared by the refusals' plain-words reasons (DESIGN principle 11). Only names, URIs and scopes are
// quoted here: never a secret, token, code or verifier.

/** `"value"`, cut at `max` characters with `…`. */
export function quote(value: string, max = 200): string {
  return `"${value.length > max ? `${value.slice(0, max)}…` : value}"`;
}

/** `"a", "b"` or `none`. */
export function quoteAll(values: readonly string[], none = 'none'): string {
  return values.length === 0 ? none : values.map((v) => quote(v)).join(', ');
}

export const when = (ms: number): string => new Date(ms).toISOString();
