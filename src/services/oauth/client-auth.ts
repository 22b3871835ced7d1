// Client authentication at the token, revocation and introspection endpoints (RFC 6749 §2.3, docs/contracts.md §2):
// `client_secret_basic` (base64, then form-decoding of id and secret) or `client_secret_post`, never both.
// A client seeded with a secret must present it; a public client presents its client_id alone.
import type { ClientRecord, Store } from '../../store/store.js';
import { invalidClient, invalidRequest, OAuthError } from '../../errors.js';
import { safeEqual } from '../../http/auth.js';
import { resolveClient, type ResolvedClient } from './clients.js';
import { decodeFormComponent, type Params } from './params.js';
import { quote, quoteOrDescribe } from './reasons.js';

export interface Presented {
  clientId: string;
  secret?: string;
  usedBasic: boolean;
}

const BASIC = /^Basic[ \t]+([A-Za-z0-9+/=]*)[ \t]*$/i;

// Refusals here are returned, not thrown: the token endpoint's refusals are as common as its successes (bench
// bad-input), and each throw costs V8 a message object with a source location, ~2-3 us, once per async layer it
// crosses. The throwing forms below are for callers that render whatever is thrown.

function fromBasic(header: string): { clientId: string; secret: string } | OAuthError {
  const match = BASIC.exec(header);
  const decoded = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  if (colon <= 0) {
    return invalidClient('The Basic authorization header is malformed.', true).because(
      'The Authorization: Basic header does not decode to client_id:client_secret (base64 of the two, joined by a colon).',
    );
  }
  // Id and secret are form-encoded inside the base64 (RFC 6749 §2.3.1), decoded as the body's parameters are.
  return { clientId: decodeFormComponent(decoded.slice(0, colon)), secret: decodeFormComponent(decoded.slice(colon + 1)) };
}

/** Who the request says it is; invalid_request for a missing client_id or two methods at once. */
export function presentedClient(authorization: string | undefined, params: Params): Presented | OAuthError {
  if (authorization !== undefined && /^Basic(\s|$)/i.test(authorization)) {
    const basic = fromBasic(authorization);
    if (!('clientId' in basic)) return basic;
    if (params.client_secret !== undefined) {
      return invalidRequest('The client authenticated with both the Authorization header and client_secret; use one method.').because(
        'The client sent its secret twice, in the Basic header and as client_secret in the body; expected exactly one of client_secret_basic or client_secret_post.',
      );
    }
    if (params.client_id !== undefined && params.client_id !== basic.clientId) {
      return invalidRequest('client_id in the body differs from the client of the Authorization header.').because(
        `The body says client_id ${quoteOrDescribe('a value', params.client_id)}, the Basic header says ${quoteOrDescribe('a client_id', basic.clientId)}; they must name the same client.`,
      );
    }
    return { clientId: basic.clientId, secret: basic.secret, usedBasic: true };
  }
  if (params.client_id === undefined) {
    return invalidRequest('The client_id parameter is required.').because(
      'No client was named: expected client_id in the body or an Authorization: Basic header.',
    );
  }
  return { clientId: params.client_id, secret: params.client_secret, usedBasic: false };
}

/** Whether `presented` proves to be this registered client (the success condition of the checks below). */
export function provesClient(client: ClientRecord, presented: Presented): boolean {
  const expected = client.clientSecret;
  if (expected === undefined) return !presented.secret;
  return presented.secret !== undefined && safeEqual(presented.secret, expected);
}

/** Authenticates the presented client; every failure is invalid_client (401), returned. */
export async function checkClient(store: Store, presented: Presented): Promise<ResolvedClient | OAuthError> {
  const fail = (description: string) => invalidClient(description, presented.usedBasic);
  const resolved = await resolveClient(store, presented.clientId);
  if (!resolved)
    return fail('Client authentication failed: unknown client or wrong secret.').because(
      `No OAuth client ${quoteOrDescribe('with client_id', presented.clientId)} is registered (check client_id against the seed's oauth_clients).`,
    );
  if (resolved.open) return resolved; // open mode: every client is public, a presented secret is ignored
  const expected = resolved.client.clientSecret;
  if (expected === undefined) {
    // A public client has nothing to prove, and presenting a secret it does not have is a misconfiguration.
    if (presented.secret) {
      return fail('This client is public (registered without a secret); do not send a client_secret.').because(
        `The client ${quote(presented.clientId)} is registered without a secret (public), but the request sent one; expected none.`,
      );
    }
    return resolved;
  }
  if (presented.secret === undefined) {
    return fail('This client must authenticate with its client_secret.').because(
      `The client ${quote(presented.clientId)} is registered with a secret, but the request sent none; expected client_secret (body) or a Basic header.`,
    );
  }
  if (!safeEqual(presented.secret, expected)) {
    return fail('Client authentication failed: unknown client or wrong secret.').because(
      `The secret sent for the client ${quote(presented.clientId)} is not the registered one.`,
    );
  }
  return resolved;
}

/** Authenticates the client of a request, throwing its refusal (revocation and introspection render what is thrown). */
export async function authenticateClient(store: Store, authorization: string | undefined, params: Params): Promise<ResolvedClient> {
  const presented = presentedClient(authorization, params);
  if (presented instanceof OAuthError) throw presented;
  const checked = await checkClient(store, presented);
  if (checked instanceof OAuthError) throw checked;
  return checked;
}
