// GET /authorize, validated once (docs/contracts.md §2): client, redirect URI, response type, scopes and PKCE.
// Every failure is the HTML error page, never a redirect, so that a bad request cannot bounce a browser
// to an address the client did not register.
import type { AuthorizationParameters, Store } from '../../store/store.js';
import { HtmlError } from '../../errors.js';
import { resolveClient } from './clients.js';
import { checkRedirectUri } from './redirect-uris.js';
import { checkScopes } from './scopes.js';
import { checkChallenge } from './pkce.js';
import type { Params } from './params.js';
import { named, quote, quoteAll, quoteOrDescribe, quoteUri } from './reasons.js';

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
  if (!resolved) {
    const known = (await store.clients.list()).map((c) => c.clientId);
    throw new HtmlError(
      'Unknown client',
      `No OAuth client ${quoteOrDescribe('with client_id', clientId)} is registered with this service. Registered client ids: ${quoteAll(known)}. ` +
        'Use one of them, or add the client under platform.oauth_clients in the seed.',
    );
  }

  const redirect = checkRedirectUri(resolved, params.redirect_uri);
  if ('problem' in redirect) {
    const sent = params.redirect_uri === undefined ? 'none was sent' : `the one sent is ${quoteUri(params.redirect_uri)}`;
    throw new HtmlError(
      'Invalid redirect URI',
      `${redirect.problem} For the client ${quote(clientId, 64)}, ${sent}; the registered ones are ${quoteAll(resolved.client.redirectUris)}. ` +
        'Send one of them (any port matches for localhost, 127.0.0.1 and [::1]), or add it to redirect_uris of this client in the seed.',
    );
  }

  if (params.response_type === undefined)
    throw new HtmlError('Missing response_type', 'The authorization request must set response_type=code; it has no response_type.');
  if (params.response_type !== 'code') {
    throw new HtmlError(
      'Unsupported response type',
      `${named('response_type', params.response_type)} is not supported; only "code" is (the authorization code flow). Send response_type=code.`,
    );
  }
  if (!resolved.client.grantTypes.includes('authorization_code')) {
    throw new HtmlError(
      'Unauthorized client',
      `The client "${clientId}" is not allowed the authorization_code grant; it is registered for ${quoteAll(resolved.client.grantTypes)}. Add authorization_code to its grant_types in the seed.`,
    );
  }

  const scopes = checkScopes(resolved.client, params.scope);
  if ('problem' in scopes) {
    throw new HtmlError(
      'Invalid scope',
      `${scopes.problem} The client ${quote(clientId, 64)} may ask for ${quoteAll(resolved.client.allowedScopes, 'any scope')}. Ask only for those, or add the scope to allowed_scopes of this client in the seed.`,
    );
  }

  const pkce = checkChallenge(params.code_challenge, params.code_challenge_method);
  if ('problem' in pkce) {
    throw new HtmlError('Invalid PKCE parameters', pkce.problem).because(
      `PKCE at authorize: ${pkce.problem} (sent ${params.code_challenge_method === undefined ? 'no code_challenge_method' : named('code_challenge_method', params.code_challenge_method)}, a code_challenge of ${params.code_challenge?.length ?? 0} characters).`,
    );
  }

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
