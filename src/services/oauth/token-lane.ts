// The token endpoint's fast lane (src/http/fast-lane.ts, docs/architecture.md "Hot paths"): a client_credentials
// request, and any request refused before its grant changes anything, answered without the framework. The form
// is parsed as the route's parser does; the grant modules decide exactly as they do for the route. Codes and
// refresh tokens are the route's: their grants change state before they can fail, so a lane must not run them
// (a declined request is run again by the route).
import { invalidRequest, OAuthError } from '../../errors.js';
import type { LaneAnswer } from '../../http/fast-lane.js';
import { oauthAnswer, UNSUPPORTED_MEDIA_TYPE } from '../../http/render-error.js';
import { actsAs, type TokenResponse } from './access-tokens.js';
import type { TokenDeps } from './deps.js';
import { JOINED_FORM_FIELDS, singleValued, type Params } from './params.js';
import { tokenOutcome } from './token-endpoint.js';

/** Success headers, as the route's `noStore` sets them (lower case, as the framework sends them). */
export const NO_STORE_HEADERS = ['cache-control', 'no-store', 'pragma', 'no-cache'];

const ROUTE_ONLY = new Set(['authorization_code', 'refresh_token']);

export async function tokenLaneAnswer(deps: TokenDeps, form: string, authorization: string | undefined, journaled: boolean): Promise<LaneAnswer | undefined> {
  let params: Params;
  try {
    params = singleValued(form, JOINED_FORM_FIELDS);
  } catch {
    return undefined; // a repeated field: the route names it
  }
  const grantType = params.grant_type;
  if (grantType !== undefined && ROUTE_ONLY.has(grantType)) return undefined;
  // The journal entry's names, as the route's hook reads them from the parsed body.
  const named = { clientId: params.client_id, username: params.username };
  // client_credentials proves the remembered client first, inside its own grant module. Refusals come back as
  // values (no throw on the hot path); one a grant still throws is caught the same way.
  let outcome: TokenResponse | OAuthError;
  try {
    const pending = tokenOutcome(deps, authorization, params);
    outcome = pending instanceof OAuthError ? pending : await pending;
  } catch (err) {
    // Exactly the OAuth refusals; anything else (the store failing) the route renders.
    if (!(err instanceof OAuthError) || err.constructor !== OAuthError) throw err;
    outcome = err;
  }
  if (outcome instanceof OAuthError) return refused(outcome, named);
  const username = journaled ? actsAs(outcome) : undefined;
  return { status: 200, headers: NO_STORE_HEADERS, body: JSON.stringify(outcome), clientId: named.clientId, username };
}

function refused(refusal: OAuthError, named: { clientId?: string; username?: string }): LaneAnswer {
  const answer = oauthAnswer(refusal);
  return { status: answer.status, headers: answer.headers, body: answer.body, refusal, clientId: named.clientId, username: named.username };
}

/** A JSON body: the route takes forms only, and its catch-all parser refuses the type (src/http/render-error.ts). */
export function tokenLaneJsonRefusal(): LaneAnswer {
  const refusal = invalidRequest(UNSUPPORTED_MEDIA_TYPE);
  return { ...oauthAnswer(refusal), refusal };
}
