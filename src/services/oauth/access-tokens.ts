// Minting access tokens: shared by the token endpoint's grants and the control route that mints for tests.
import type { UserRecord } from '../../store/store.js';
import { ACCESS_TOKEN_TTL_SECONDS, type AccessTokenRecord } from '../../store/tokens.js';
import { randomSecret } from '../../ids.js';
import type { OAuthDeps } from './deps.js';
import { accessTokensFull, refusalFor } from './limits.js';
import type { EmulatorError } from '../../errors.js';
import { oauthLimitsOf } from './caps.js';
import { TOKEN_PREFIX } from '../../platform-constants.js';

const ACCESS_TOKEN_PREFIX = TOKEN_PREFIX;

/** The username an answer acts as, for the journal: under a symbol key, which JSON never writes. */
const ACTS_AS: unique symbol = Symbol('acts as');

/** The token endpoint's success body (SPEC §2.3, docs/contracts.md §2). */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
  refresh_token?: string;
  [ACTS_AS]?: string;
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
  return {
    record,
    response: {
      access_token: token,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
      scope: request.scopes.join(' '),
      [ACTS_AS]: undefined, // set once stored: every answer keeps one shape
    },
  };
}

/** The record naming its principal, keys in the order every token record has (token, principalId, the rest). */
export const withPrincipal = (record: Omit<AccessTokenRecord, 'principalId'>, principalId: string): AccessTokenRecord => {
  const { token, ...rest } = record;
  return { token, principalId, ...rest };
};

/** Notes the username an answer acts as; returns the answer. Every mint here calls it once the token is stored. */
export function mintedFor(response: TokenResponse, username: string): TokenResponse {
  response[ACTS_AS] = username;
  return response;
}

/** The username a minted answer acts as (the journal's; never on the wire). */
export const actsAs = (response: TokenResponse): string | undefined => response[ACTS_AS];

/** Past `limits.max_access_tokens` nothing is stored and `whenFull` is thrown (by default the token endpoint's 503). */
export async function mintAccessToken(
  deps: OAuthDeps,
  request: MintRequest,
  whenFull: (max: number) => EmulatorError = accessTokensFull,
): Promise<TokenResponse> {
  const { record, response } = newAccessToken(deps, request);
  try {
    await deps.store.tokens.insertAccess(withPrincipal(record, request.principal.id), oauthLimitsOf(deps.seed).maxAccessTokens);
  } catch (err) {
    throw refusalFor(err, whenFull);
  }
  return mintedFor(response, request.principal.username);
}
