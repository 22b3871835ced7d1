// The shape every grant module shares; the token endpoint picks one from a table by grant_type and hands it the
// request. Most grants start with the general client authentication (`afterClientAuthentication`); a grant may
// first try a faster way of its own that answers only a clean success (client_credentials: the remembered
// client, ./remembered-client.ts), and falls back to the general path for everything else.
import type { ClientRecord, GrantType } from '../../../store/store.js';
import { OAuthError, unauthorizedClient } from '../../../errors.js';
import type { TokenResponse } from '../access-tokens.js';
import type { Params } from '../params.js';
import type { TokenDeps } from '../deps.js';
import { checkClient, presentedClient, type Presented } from '../client-auth.js';
import { quote, quoteAll } from '../reasons.js';

export interface TokenRequest {
  grantType: GrantType;
  authorization: string | undefined;
  params: Params;
}

export interface GrantContext extends TokenDeps {
  /** The authenticated client. */
  client: ClientRecord;
  params: Params;
}

/**
 * A grant's answer: the token, or the refusal it decided, returned rather than thrown where that is cheap (see
 * ../client-auth.ts); a grant may also still throw (the token endpoint takes both).
 */
export type Grant = (deps: TokenDeps, request: TokenRequest) => Promise<TokenResponse | OAuthError>;

/** The general first step: the client authenticated (RFC 6749 §2.3), and registered for this grant type. */
export async function authenticatedContext(deps: TokenDeps, request: TokenRequest, presented?: Presented): Promise<GrantContext | OAuthError> {
  const claimed = presented ?? presentedClient(request.authorization, request.params);
  if (claimed instanceof OAuthError) return claimed;
  const checked = await checkClient(deps.store, claimed);
  if (checked instanceof OAuthError) return checked;
  const { client } = checked;
  if (!client.grantTypes.includes(request.grantType)) {
    return unauthorizedClient(`The client "${client.clientId}" is not allowed the ${request.grantType} grant.`).because(
      `The client ${quote(client.clientId)} asked for the ${request.grantType} grant; it is registered for ${quoteAll(client.grantTypes)}.`,
    );
  }
  return { store: deps.store, clock: deps.clock, seed: deps.seed, scopeMatrix: deps.scopeMatrix, client, params: request.params };
}

/** A grant that needs only the authenticated client. */
export const afterClientAuthentication =
  (issue: (context: GrantContext) => Promise<TokenResponse>): Grant =>
  async (deps, request) => {
    const context = await authenticatedContext(deps, request);
    return context instanceof OAuthError ? context : issue(context);
  };
