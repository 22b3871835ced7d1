// Scope strings (RFC 6749 §3.3) and the client's allowed_scopes (SPEC §5 rule 4).
import type { ClientRecord } from '../../store/store.js';
import { quoteField } from './reasons.js';
import type { Params } from './params.js';

export const OFFLINE_ACCESS = 'offline_access';

/** The scopes the service knows by name; any other scope string is accepted and stored too. */
export const KNOWN_SCOPES = [
  'api:admin-read',
  'api:connectivity-connection-read',
  'api:connectivity-connection-write',
  'api:ontologies-read',
  'api:ontologies-write',
  OFFLINE_ACCESS,
];

// scope-token = 1*( %x21 / %x23-5B / %x5D-7E )
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

type ScopeCheck = { scopes: string[] } | { problem: string };

/** Splits a space-separated scope parameter into distinct scopes, in the order given. */
function parseScopes(value: string | undefined): ScopeCheck {
  const scopes = [...new Set((value ?? '').split(' ').filter((s) => s !== ''))];
  const bad = scopes.find((s) => !SCOPE_TOKEN.test(s));
  return bad === undefined ? { scopes } : { problem: `The scope ${quoteField(bad)} contains characters a scope may not contain.` };
}

/** The scopes outside a client's non-empty allowed_scopes. */
function disallowedScopes(client: ClientRecord, scopes: string[]): string[] {
  if (client.allowedScopes.length === 0) return [];
  return scopes.filter((s) => !client.allowedScopes.includes(s));
}

/** Parses and checks scopes against the client; returns the scopes or what is wrong. */
export function checkScopes(client: ClientRecord, value: string | undefined): ScopeCheck {
  const parsed = parseScopes(value);
  if ('problem' in parsed) return parsed;
  const outside = disallowedScopes(client, parsed.scopes);
  if (outside.length === 0) return parsed;
  return { problem: `The client is not allowed the scope${outside.length > 1 ? 's' : ''} ${outside.map(quoteField).join(', ')}.` };
}

/** The scopes a client_credentials request asks for, checked against the client, or what is wrong with them. */
export function clientCredentialsScopes(client: ClientRecord, params: Params, matrix: readonly string[]): { scopes: string[] } | { problem: string } {
  if (params.scope === undefined) return { scopes: [...(client.allowedScopes.length > 0 ? client.allowedScopes : matrix)] };
  const asked = (params.scope ?? '').split(' ');
  const offline = asked.includes(OFFLINE_ACCESS);
  const requested = checkScopes(client, offline ? asked.filter((s) => s !== OFFLINE_ACCESS).join(' ') : params.scope);
  if ('problem' in requested) return requested;
  // In the order asked, offline_access where it was.
  return offline ? { scopes: [...new Set(asked)].filter((s) => s === OFFLINE_ACCESS || requested.scopes.includes(s)) } : requested;
}
