// Plain-words reasons of the ontology refusals (DESIGN principle 11): what was asked for and what there is, so
// that the journal and the log line say how to fix the request. Set at the throw sites with `.because()`.
import { quote } from '../../errors.js';

/** Names for a reason: quoted, at most 20, or `none`. */
export function names(list: Iterable<string>): string {
  const all = [...list];
  if (all.length === 0) return 'none';
  const shown = all.slice(0, 20).map((n) => quote(n));
  return all.length > 20 ? `${shown.join(', ')} and ${all.length - 20} more` : shown.join(', ');
}

/** A given value as a reason may show it (JSON, quoted and cut). Parameter and key values are never secrets. */
export const shown = (value: unknown): string => quote(JSON.stringify(value) ?? 'undefined');
