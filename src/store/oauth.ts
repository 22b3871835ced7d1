// Authorization-server state besides access tokens: pending authorize requests, codes and refresh tokens.
// Each atomic step is its own method (consume a code, rotate a refresh token, revoke a family) so that a
// shared backend can implement it with one statement and callers never read-then-write.
// Every record kind has one fixed lifetime, so records expire in the order they were created.

export interface PkceChallenge {
  value: string;
  method: 'S256' | 'plain';
}

/** What an authorize request asked for; a code carries it on to the token endpoint. */
export interface AuthorizationParameters {
  clientId: string;
  redirectUri: string;
  scopes: string[];
  state?: string;
  codeChallenge?: PkceChallenge;
}

/** A validated authorize request, waiting for the user to pick an identity on the sign-in page. */
export interface AuthorizeRequestRecord extends AuthorizationParameters {
  id: string;
  /** Echoed by the sign-in form. */
  csrfToken: string;
  /** The sign-in cookie of the browser that opened the page: the form must come from the same browser. */
  browserId: string;
  expiresAt: number;
}

export interface AuthorizationCodeRecord extends Omit<AuthorizationParameters, 'state'> {
  code: string;
  userId: string;
  /** Shared by every token issued from this code, so a replay revokes them together. */
  grantId: string;
  expiresAt: number;
  /** Set once the code was presented at the token endpoint (successfully or not). */
  consumed?: boolean;
}

export interface RefreshTokenRecord {
  token: string;
  clientId: string;
  userId: string;
  /** The scopes of the original authorization; a refresh may narrow the access token, never these. */
  scopes: string[];
  grantId: string;
  /** Issued one fixed lifetime (REFRESH_TOKEN_TTL_MS) before this, so the issue time is not stored. */
  expiresAt: number;
  /** Set when rotated away or revoked; kept until expiry so that a reuse is recognised. */
  retired?: boolean;
}

export type ConsumeCodeResult =
  | { outcome: 'fresh'; code: AuthorizationCodeRecord }
  /** Presented before: the caller revokes what the code produced. */
  | { outcome: 'replayed'; code: AuthorizationCodeRecord }
  | { outcome: 'unknown' };

export type RotateResult = { outcome: 'rotated' } | { outcome: 'reused'; grantId: string } | { outcome: 'unknown' };

export interface OAuthRepo {
  /** With `max`: forgets the oldest requests first, so that at most `max` are kept (a half-done sign-in is lost). */
  saveAuthorizeRequest(request: AuthorizeRequestRecord, max?: number): Promise<void>;
  findAuthorizeRequest(id: string): Promise<AuthorizeRequestRecord | undefined>;
  /** Removes and returns the request: a sign-in form can be submitted once. */
  takeAuthorizeRequest(id: string): Promise<AuthorizeRequestRecord | undefined>;

  /** With `max`: forgets the oldest codes first (most were exchanged already), so that at most `max` are kept. */
  insertCode(code: AuthorizationCodeRecord, max?: number): Promise<void>;
  /** Marks the code consumed and says whether it was fresh; a consumed code stays known until it expires. */
  consumeCode(code: string): Promise<ConsumeCodeResult>;

  /**
   * With `max`, when `max` tokens are stored already: forgets the oldest retired token (kept only to recognise
   * a reuse); when every one is live, stores nothing and throws StoreFull.
   */
  insertRefreshToken(token: RefreshTokenRecord, max?: number): Promise<void>;
  findRefreshToken(token: string): Promise<RefreshTokenRecord | undefined>;
  /**
   * Retires `current` and stores `next`, in one step. When `current` was already retired (a reuse), stores
   * nothing and answers `reused`; the caller then revokes the grant. With `max`, makes room as
   * insertRefreshToken does but never refuses: rotation keeps the live count, so at worst `current`, just
   * retired, is the one forgotten.
   */
  rotateRefreshToken(current: string, next: RefreshTokenRecord, max?: number): Promise<RotateResult>;
  /**
   * Revokes an authorization: retires its refresh tokens and remembers the grant as revoked until
   * `rememberUntil`, so that a token a concurrent request is issuing for it is caught (isGrantRevoked).
   */
  /** With `max`: forgets the oldest marks first, so that at most `max` are kept (each matters only while a token is being issued). */
  revokeGrant(grantId: string, rememberUntil: number, max?: number): Promise<void>;
  isGrantRevoked(grantId: string): Promise<boolean>;
  /** The authorizations of a user that still have a usable refresh token (what revoking all its tokens must end). */
  liveGrantsOfUser(userId: string): Promise<string[]>;

  /** Deletes requests, codes, refresh tokens and revoked-grant marks that expired at or before `now`; returns how many. */
  sweepExpired(now: number): Promise<number>;
  counts(): Promise<{ authorizeRequests: number; codes: number; refreshTokens: number; revokedGrants: number }>;
}
