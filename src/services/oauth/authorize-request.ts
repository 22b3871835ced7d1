// GET /authorize, validated once (CONTRACTS §2): client, redirect URI, response type, scopes and PKCE.
// Every failure is the HTML error page, never a redirect, so that a bad request cannot bounce a browser
// to an address the client did not register.
import type { AuthorizationParameters, Store } from '../../store/store.js';
import { HtmlError } from '../../errors.js';
import { resolveClient } from './clients.js';
import { checkRedirectUri } from './redirect-uris.js';
import { checkScopes } from './scopes.js';
import { checkChallenge } from './pkce.js';
import type { Params } from './params.js';

/** An authorize request that passed every check. */
export interface ValidAuthorizeRequest extends AuthorizationParameters {
  clientName: string;
  loginHint?: string;
}

/** Long enough for any real client's state, short enough that stored requests stay small. */
const MAX_STATE_LENGTH = 2048;

export async function validateAuthorizeRequest(store: Store, params: Params): Promise<ValidAuthorizeRequest> {
  const clientId = params.client_id;
  if (clientId === undefined) throw new HtmlError('Missing client_id', 'The authorization request must name its client with the client_id parameter.');
  const resolved = await resolveClient(store, clientId);
  if (!resolved) throw new HtmlError('Unknown client', `No OAuth client "${clientId}" is registered with this service.`);

  const redirect = checkRedirectUri(resolved, params.redirect_uri);
  if ('problem' in redirect) throw new HtmlError('Invalid redirect URI', redirect.problem);

  if (params.response_type === undefined) throw new HtmlError('Missing response_type', 'The authorization request must set response_type=code.');
  if (params.response_type !== 'code') throw new HtmlError('Unsupported response type', `response_type "${params.response_type}" is not supported; only "code" is.`);
  if (!resolved.client.grantTypes.includes('authorization_code')) {
    throw new HtmlError('Unauthorized client', `The client "${clientId}" is not allowed the authorization_code grant.`);
  }

  const scopes = checkScopes(resolved.client, params.scope);
  if ('problem' in scopes) throw new HtmlError('Invalid scope', scopes.problem);

  const pkce = checkChallenge(params.code_challenge, params.code_challenge_method);
  if ('problem' in pkce) throw new HtmlError('Invalid PKCE parameters', pkce.problem);

  if (params.state !== undefined && params.state.length > MAX_STATE_LENGTH) {
    throw new HtmlError('Invalid state', `state is longer than ${MAX_STATE_LENGTH} characters.`);
  }

  return {
    clientId,
    clientName: resolved.client.name,
    redirectUri: redirect.redirectUri,
    scopes: scopes.scopes,
    state: params.state,
    codeChallenge: pkce.challenge,
    loginHint: params.login_hint,
  };
}
