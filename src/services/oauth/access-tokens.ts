// Minting access tokens: shared by the token endpoint's grants and the control route that mints for tests.
import type { UserRecord } from '../../store/store.js';
import { ACCESS_TOKEN_TTL_SECONDS, type AccessTokenRecord } from '../../store/tokens.js';
import { randomSecret } from '../../ids.js';
import type { OAuthDeps } from './deps.js';
import { accessTokensFull, refusalFor } from './limits.js';
import type { EmulatorError } from '../../errors.js';

const ACCESS_TOKEN_PREFIX = 'platform_';

/** The token endpoint's success body (SPEC §2.3, docs/contracts.md §2). */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
  refresh_token?: string;
}

interface MintRequest {
  principal: UserRecord;
  clientId: string | null;
  scopes: string[];
  grantId?: string;
}

/** When the token was issued: every access token lives exactly ACCESS_TOKEN_TTL_SECONDS. */
export const accessIssuedAt = (token: Pick<AccessTokenRecord, 'expiresAt'>): number => token.expiresAt - ACCESS_TOKEN_TTL_SECONDS * 1000;

/** A new access token for `request`'s client and scopes, not yet naming its principal, and the answer that hands it out. */
export function newAccessToken(
  deps: Pick<OAuthDeps, 'clock'>,
  request: Omit<MintRequest, 'principal'>,
): { record: Omit<AccessTokenRecord, 'principalId'>; response: TokenResponse } {
  const token = ACCESS_TOKEN_PREFIX + randomSecret();
  const record = {
    token,
    clientId: request.clientId,
    scopes: request.scopes,
    expiresAt: deps.clock.now() + ACCESS_TOKEN_TTL_SECONDS * 1000,
    grantId: request.grantId,
  };
  return { record, response: { access_token: token, token_type: 'Bearer', expires_in: ACCESS_TOKEN_TTL_SECONDS, scope: request.scopes.join(' ') } };
}

/** The record naming its principal, keys in the order every token record has (token, principalId, the rest). */
export const withPrincipal = (record: Omit<AccessTokenRecord, 'principalId'>, principalId: string): AccessTokenRecord => {
  const { token, ...rest } = record;
  return { token, principalId, ...rest };
};

/** The username each minted answer acts as, for the journal (never sent: the answer's own fields are the wire). */
const principalNames = new WeakMap<TokenResponse, string>();

/**
 * The username a token answer acts as: known when it was minted here with its principal; else (the PostgreSQL
 * one-statement client_credentials mint, which finds the principal in the database) looked up by the token.
 */
export async function principalNameOf(deps: Pick<OAuthDeps, 'store'>, response: TokenResponse): Promise<string | undefined> {
  const known = principalNames.get(response);
  if (known !== undefined) return known;
  const { tokens, users } = deps.store;
  if (tokens.findAccessWithPrincipal) return (await tokens.findAccessWithPrincipal(response.access_token))?.principal?.username;
  const token = await tokens.findAccess(response.access_token);
  return token && (await users.byId(token.principalId))?.username;
}

/** Past `limits.max_access_tokens` nothing is stored and `whenFull` is thrown (by default the token endpoint's 503). */
export async function mintAccessToken(
  deps: OAuthDeps,
  request: MintRequest,
  whenFull: (max: number) => EmulatorError = accessTokensFull,
): Promise<TokenResponse> {
  const { record, response } = newAccessToken(deps, request);
  try {
    await deps.store.tokens.insertAccess(withPrincipal(record, request.principal.id), deps.settings.oauthLimits.maxAccessTokens);
  } catch (err) {
    throw refusalFor(err, whenFull);
  }
  principalNames.set(response, request.principal.username);
  return response;
}
