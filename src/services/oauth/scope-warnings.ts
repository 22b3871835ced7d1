// A scope in `allowed_scopes` that is a slip away from a scope the service enforces (`api:admin-reed`) is
// almost surely a typo: the client would be refused the scope it needs, and the seed gives no other hint.
// A warning, not an error: any scope string is allowed (custom scopes are stored and echoed).
import { KNOWN_SCOPES } from './scopes.js';
import { editDistance } from '../../seed/edit-distance.js';
import { quote } from '../../seed/helpers.js';

/** Up to two edits (a transposition is two), or a difference of case or of `-` for `_`. */
const MAX_EDITS = 2;
const normal = (scope: string) => scope.toLowerCase().replace(/-/g, '_');

function likelyScope(scope: string): string | undefined {
  if (KNOWN_SCOPES.includes(scope)) return undefined;
  let best: { scope: string; distance: number } | undefined;
  for (const known of KNOWN_SCOPES) {
    const distance = editDistance(normal(scope), normal(known));
    if (distance <= MAX_EDITS && (!best || distance < best.distance)) best = { scope: known, distance };
  }
  return best?.scope;
}

/** The seed's clients, as far as this reads them (seed.ts calls it with its own records). */
export function scopeWarnings(clients: ReadonlyArray<{ allowed_scopes: readonly string[] }>): string[] {
  const warnings: string[] = [];
  clients.forEach((client, i) =>
    client.allowed_scopes.forEach((scope, j) => {
      const likely = likelyScope(scope);
      if (likely)
        warnings.push(`platform.oauth_clients[${i}].allowed_scopes[${j}]: ${quote(scope)} is not a scope the service knows; did you mean "${likely}"?`);
    }),
  );
  return warnings;
}
