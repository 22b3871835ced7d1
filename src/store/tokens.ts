// Issued credentials. Every access token lives exactly ACCESS_TOKEN_TTL_SECONDS, so tokens expire in the
// order they were issued; the memory store relies on that to sweep in time proportional to what expired.

import type { ClientRecord } from './clients.js';
import type { UserRecord } from './users.js';

export const ACCESS_TOKEN_TTL_SECONDS = 3600;

export interface AccessTokenRecord {
  token: string;
  principalId: string;
  /** Null for tokens minted by the control routes. */
  clientId: string | null;
  scopes: string[];
  /** Issued ACCESS_TOKEN_TTL_SECONDS before this (one fixed lifetime), so the issue time is not stored. */
  expiresAt: number;
  /** Tokens from one authorization (a code and its refresh chain) share a grant id, so they can be revoked together. */
  grantId?: string;
}

export interface TokenRepo {
  /** With `max`: when `max` tokens are stored already, stores nothing and throws StoreFull (never evicts one). */
  insertAccess(token: AccessTokenRecord, max?: number): Promise<void>;
  findAccess(token: string): Promise<AccessTokenRecord | undefined>;
  /**
   * The token and its principal in one step (one round trip on PostgreSQL, where a request's
   * authentication is otherwise two). `principal` is undefined when the user no longer exists.
   */
  findAccessWithPrincipal(token: string): Promise<{ token: AccessTokenRecord; principal: UserRecord | undefined } | undefined>;
  /**
   * client_credentials' common case in one step (one round trip on PostgreSQL, where finding the
   * client's principal and storing its token are otherwise two). Finds the principal that tokens of `clientId`
   * act as and, when it exists and is active and the cap has room for certain, stores `token` for it.
   * Answers the principal's username when stored (the journal names it: no second lookup), undefined when not,
   * which decides nothing: the caller takes its general path (which makes a missing principal,
   * refuses a deactivated one, and decides the cap exactly). With `asOf`, the token is stored only if the
   * stored client still equals that record: what a client was authenticated against without reading it now.
   */
  insertAccessForClientPrincipal(
    clientId: string,
    token: Omit<AccessTokenRecord, 'principalId'>,
    max?: number,
    asOf?: ClientRecord,
  ): Promise<string | undefined>;
  revokeAccess(token: string): Promise<boolean>;
  /** Revokes every access token of a grant; returns how many. */
  revokeGrant(grantId: string): Promise<number>;
  /** Revokes every access token acting as the principal (a deleted user, revokeAllTokens); returns how many. */
  revokePrincipal(principalId: string): Promise<number>;
  /** Deletes what expired at or before `now`; returns how many. */
  sweepExpired(now: number): Promise<number>;
  countAccess(): Promise<number>;
  /** The newest `limit` access tokens still stored (expired ones may linger until swept), newest first. */
  listAccess(limit: number): Promise<AccessTokenRecord[]>;
}
