// The PostgreSQL repositories' helpers that need no driver: a record as JSON text (not jsonb, which would
// reorder keys and refuse \u0000), text-safe parameters, caps. Apart from db.ts because the store parts that
// import the repositories are loaded on the memory store too: the driver (and what it pulls in, undici among
// them) is then loaded only when a PostgreSQL store opens (start-up, docs/performance.md).
export const encode = (value: unknown): string => JSON.stringify(value);
export const decode = <T>(text: string): T => JSON.parse(text) as T;

/**
 * PostgreSQL text cannot hold U+0000, which a client can send in any form field. Every string parameter goes
 * through this one mapping, on the way in for stored keys and lookups alike, so both sides agree: a lookup of
 * such a value finds what was stored under it, never a driver error. Records themselves are stored as JSON
 * text, where JSON.stringify has already escaped U+0000.
 */
export function textSafe(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(textSafe); // text[] parameters too
  return typeof value === 'string' && value.includes('\u0000') ? value.replaceAll('\u0000', '\uFFFF') : value;
}

/** Whether a cap was given (the memory store treats an absent or infinite one as none). */
export const capped = (max: number | undefined): max is number => max !== undefined && Number.isFinite(max);
