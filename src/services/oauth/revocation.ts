// RFC 7009 revocation and RFC 7662 introspection. A client revokes only its own tokens; revoking a refresh
// token ends its whole authorization (RFC 7009 §2.1). Introspection answers for any token, to an
// authenticated client, and says only `active: false` for anything unknown, expired, revoked or of a
// deactivated user.
import { invalidRequest } from '../../errors.js';
import { authenticateClient } from './client-auth.js';
import { refreshIssuedAt, revokeAuthorization } from './refresh-tokens.js';
import { accessIssuedAt } from './access-tokens.js';
import type { Params } from './params.js';
import type { OAuthDeps } from './deps.js';

function tokenParam(params: Params): string {
  if (params.token === undefined) throw invalidRequest('The token parameter is required.');
  return params.token;
}

export async function revoke(deps: OAuthDeps, authorization: string | undefined, params: Params): Promise<void> {
  const { client } = await authenticateClient(deps.store, authorization, params);
  const token = tokenParam(params);
  const access = await deps.store.tokens.findAccess(token);
  if (access) {
    if (access.clientId === client.clientId) await deps.store.tokens.revokeAccess(token);
    return;
  }
  const refresh = await deps.store.oauth.findRefreshToken(token);
  if (refresh && refresh.clientId === client.clientId) await revokeAuthorization(deps, refresh.grantId);
}

type Introspection =
  | { active: false }
  | {
      active: true;
      scope: string;
      client_id?: string;
      username: string;
      sub: string;
      token_type: 'Bearer' | 'refresh_token';
      exp: number;
      iat: number;
      iss: string;
    };

const seconds = (ms: number) => Math.floor(ms / 1000);

/** A live-looking token as introspection describes it; a retired refresh token is none. */
async function lookUp(store: OAuthDeps['store'], token: string) {
  const access = await store.tokens.findAccess(token);
  if (access) {
    const { principalId, clientId, scopes, expiresAt } = access;
    return { principalId, clientId: clientId ?? undefined, scopes, issuedAt: accessIssuedAt(access), expiresAt, type: 'Bearer' as const };
  }
  const refresh = await store.oauth.findRefreshToken(token);
  if (!refresh || refresh.retired) return undefined;
  const { userId, clientId, scopes, expiresAt } = refresh;
  return { principalId: userId, clientId, scopes, issuedAt: refreshIssuedAt(refresh), expiresAt, type: 'refresh_token' as const };
}

export async function introspect(deps: OAuthDeps, issuer: string, authorization: string | undefined, params: Params): Promise<Introspection> {
  await authenticateClient(deps.store, authorization, params);
  const found = await lookUp(deps.store, tokenParam(params));
  if (!found || found.expiresAt <= deps.clock.now()) return { active: false };
  const user = await deps.store.users.byId(found.principalId);
  if (!user?.active) return { active: false };
  return {
    active: true,
    scope: found.scopes.join(' '),
    ...(found.clientId !== undefined ? { client_id: found.clientId } : {}),
    username: user.username,
    sub: user.id,
    token_type: found.type,
    exp: seconds(found.expiresAt),
    iat: seconds(found.issuedAt),
    iss: issuer,
  };
}
