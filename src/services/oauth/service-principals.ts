// The principal behind a client_credentials token, bounded in open mode (docs/contracts.md §2, §8).
//
// In open mode any client_id gets a token, and each new one made a service principal that nothing expires: an
// unauthenticated caller could grow memory without end. `limits.max_service_principals` caps the principals made
// for unregistered client ids; past it a *new* client id is refused (503 temporarily_unavailable), while the ones
// already made keep getting tokens. Refusing, not evicting the oldest: a principal is named by every token minted
// for it and by ids callers have read (/me, admin lookups), so evicting safely means knowing it has no live token,
// which needs a per-principal count of live tokens kept in step with mint, revoke, grant revocation and expiry
// sweeps in every store backend, for a case only a flood reaches. A reset (or a restart) makes room.
// Seeded service users and principals of seeded clients are bounded by the seed and never count.
import type { ClientRecord, UserRecord } from '../../store/store.js';
import { mintedFor, newAccessToken, type TokenResponse } from './access-tokens.js';
import type { OAuthDeps } from './deps.js';
import { refusalFor, servicePrincipalsFull } from './limits.js';
import { oauthLimitsOf } from './caps.js';

/**
 * The common case in one store step, where the store offers it (PostgreSQL): the client's principal exists, is
 * active, and its token fits under the cap (and, with `asOf`, the stored client still equals it). Undefined when
 * not (or the store has no such step): the caller's general path then decides, with the outcome it always had.
 */
export async function mintForClientPrincipal(deps: OAuthDeps, clientId: string, scopes: string[], asOf?: ClientRecord): Promise<TokenResponse | undefined> {
  const { tokens } = deps.store;
  const { record, response } = newAccessToken(deps, { clientId, scopes });
  const username = await tokens.insertAccessForClientPrincipal(clientId, record, oauthLimitsOf(deps.seed).maxAccessTokens, asOf);
  return username === undefined ? undefined : mintedFor(response, username);
}

/**
 * `mint(principal)` for the client's principal. For an unregistered (open-mode) client id the token is minted
 * first and the principal stored after, so a request refused by either cap leaves neither behind.
 */
export async function withServicePrincipal(
  deps: OAuthDeps,
  clientId: string,
  create: () => UserRecord,
  mint: (principal: UserRecord) => Promise<TokenResponse>,
): Promise<TokenResponse> {
  const { store } = deps;
  if (await store.clients.byId(clientId)) return mint(await store.users.servicePrincipalFor(clientId, create));

  // The automatic principal's id is fixed by the client id, so its token can be minted before it is stored: a
  // token refused (max_access_tokens) then creates nothing. The token is handed to no one until this returns.
  const candidate = create();
  const minted = await mint(candidate);
  let principal: UserRecord;
  try {
    principal = await store.users.servicePrincipalFor(clientId, () => candidate, oauthLimitsOf(deps.seed).maxServicePrincipals);
  } catch (err) {
    await store.tokens.revokeAccess(minted.access_token);
    throw refusalFor(err, servicePrincipalsFull);
  }
  if (principal.id === candidate.id) return minted;
  // A seeded service user stands for this client id (open mode with `oauth_client_id` on a user): its token instead.
  await store.tokens.revokeAccess(minted.access_token);
  return mint(principal);
}
