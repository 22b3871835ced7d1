// The shape every grant module shares; the token endpoint picks one from a table by grant_type and hands it the
// request. Most grants start with the general client authentication (`afterClientAuthentication`); a grant may
// first try a faster way of its own that answers only a clean success (client_credentials: the remembered
// client, ./remembered-client.ts), and falls back to the general path for everything else.
import type { ClientRecord, GrantType } from '../../../store/store.js';
import { unauthorizedClient } from '../../../errors.js';
import type { TokenResponse } from '../access-tokens.js';
import type { Params } from '../params.js';
import type { TokenDeps } from '../deps.js';
import { authenticateClient, type Presented } from '../client-auth.js';
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

export type Grant = (deps: TokenDeps, request: TokenRequest) => Promise<TokenResponse>;

/** The general first step: the client authenticated (RFC 6749 §2.3), and registered for this grant type. */
export async function authenticatedContext(deps: TokenDeps, request: TokenRequest, presented?: Presented): Promise<GrantContext> {
  const { client } = await authenticateClient(deps.store, request.authorization, request.params, presented);
  if (!client.grantTypes.includes(request.grantType)) {
    throw unauthorizedClient(`The client "${client.clientId}" is not allowed the ${request.grantType} grant.`).because(
      `The client ${quote(client.clientId)} asked for the ${request.grantType} grant; it is registered for ${quoteAll(client.grantTypes)}.`,
    );
  }
  return { store: deps.store, clock: deps.clock, settings: deps.settings, scopeMatrix: deps.scopeMatrix, client, params: request.params };
}

/** A grant that needs only the authenticated client. */
export const afterClientAuthentication =
  (issue: (context: GrantContext) => Promise<TokenResponse>): Grant =>
  async (deps, request) =>
    issue(await authenticatedContext(deps, request));
