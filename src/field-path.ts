// Field paths as a user reads them (`configuration.domains[0].host`), built from JSON pointers or segments,
// so that every INVALID_ARGUMENT names its field the same way whoever found the problem (the route schema
// or a service's own checks), and a seed file's problems name theirs the same way too. Neutral (no HTTP), so
// that the seed loader and the HTTP layer can both use it.

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

/** `'/configuration/domains/0/host'` to `['configuration', '0', 'host']` (RFC 6901 unescaping). */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  const segments = pointer.split('/').slice(1);
  // Escapes are rare; every bad request with a schema problem comes through here.
  return pointer.includes('~') ? segments.map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~')) : segments;
}

/** Joins segments: identifiers with dots, indexes and odd names in brackets (`secrets["my key"]`). */
export function fieldPath(segments: ReadonlyArray<string | number>): string {
  let out = '';
  for (const segment of segments) {
    const s = String(segment);
    if (/^\d+$/.test(s)) out += `[${s}]`;
    else if (IDENTIFIER.test(s)) out += out ? `.${s}` : s;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out;
}
