// The OAuth service's control routes (docs/contracts.md §7): mint a token for a user without the browser flow,
// list live tokens (a fingerprint each, never the token) and revoke one, list clients and create or update one
// from a seed entry (the answer says whether it is confidential, never its secret).
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AccessTokenRecord, Store } from '../../store/store.js';
import type { ServiceDeps } from '../service-module.js';
import { CONTROL_ROUTE } from '../../http/route-config.js';
import { conflict, notFound } from '../../errors.js';
import { seedEntry } from '../../seed/entry.js';
import { mintAccessToken } from './access-tokens.js';
import { accessTokensFullPlatform } from './limits.js';
import { clientFromSeed, clientSeedOf, oauthClientsSeed } from './seed.js';

/** Most tokens a listing shows (newest first); the count says how many there are in all. */
const TOKEN_LIST_LIMIT = 500;

/** A stable, non-secret handle for a token: 16 hex digits of its SHA-256. */
export const tokenId = (token: string): string => createHash('sha256').update(token).digest('hex').slice(0, 16);

const iso = (ms: number) => new Date(ms).toISOString();

async function tokenView(store: Store, token: AccessTokenRecord, now: number) {
  const principal = await store.users.byId(token.principalId);
  return {
    id: tokenId(token.token),
    username: principal?.username ?? null,
    principalType: principal?.principalType ?? null,
    clientId: token.clientId,
    scopes: token.scopes,
    expiresAt: iso(token.expiresAt),
    expiresInSeconds: Math.max(0, Math.floor((token.expiresAt - now) / 1000)),
  };
}

export function oauthBackstage(parent: FastifyInstance, deps: ServiceDeps): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const { store, clock } = deps;

  app.post(
    '/_emulate/platform/tokens',
    {
      config: CONTROL_ROUTE,
      schema: {
        body: Type.Object({ username: Type.String({ minLength: 1 }), scopes: Type.Array(Type.String(), { default: [] }) }, { additionalProperties: false }),
      },
    },
    async (request) => {
      const { username, scopes } = request.body;
      const user = await store.users.byUsername(username);
      if (!user) throw notFound('UserNotFound', { username });
      if (!user.active) throw conflict('UserDeactivated', { username });
      return mintAccessToken(deps, { principal: user, clientId: null, scopes: [...new Set(scopes)] }, accessTokensFullPlatform);
    },
  );

  app.get('/_emulate/platform/tokens', { config: CONTROL_ROUTE }, async () => {
    const now = clock.now();
    const [records, stored] = await Promise.all([store.tokens.listAccess(TOKEN_LIST_LIMIT), store.tokens.countAccess()]);
    const live = records.filter((t) => t.expiresAt > now);
    const tokens = await Promise.all(live.map((t) => tokenView(store, t, now)));
    return { tokens, total: stored, truncated: stored > records.length };
  });

  app.delete(
    '/_emulate/platform/tokens/:tokenId',
    { config: CONTROL_ROUTE, schema: { params: Type.Object({ tokenId: Type.String({ pattern: '^[0-9a-f]{16}$' }) }) } },
    async (request) => {
      const all = await store.tokens.listAccess(Number.MAX_SAFE_INTEGER);
      const match = all.find((t) => tokenId(t.token) === request.params.tokenId);
      if (!match || !(await store.tokens.revokeAccess(match.token))) throw notFound('TokenNotFound', { tokenId: request.params.tokenId });
      return { revoked: true, id: request.params.tokenId };
    },
  );

  app.get('/_emulate/platform/clients', { config: CONTROL_ROUTE }, async () => ({
    clients: (await store.clients.list()).map((c) => ({
      clientId: c.clientId,
      name: c.name,
      type: c.clientSecret === undefined ? 'public' : 'confidential',
      redirectUris: c.redirectUris,
      grantTypes: c.grantTypes,
      allowedScopes: c.allowedScopes,
    })),
  }));

  const ClientParam = Type.Object({ clientId: Type.String({ minLength: 1, maxLength: 256 }) });
  app.put(
    '/_emulate/platform/oauth-clients/:clientId',
    { config: CONTROL_ROUTE, schema: { params: ClientParam, body: Type.Object({}, { additionalProperties: true }) } },
    async (request) => {
      const record = clientFromSeed(seedEntry(oauthClientsSeed, { ...request.body, client_id: request.params.clientId }));
      const created = await store.clients.upsert(record);
      const { client_secret: _secret, ...shown } = clientSeedOf(record);
      return { created, client: { ...shown, public: record.clientSecret === undefined } };
    },
  );
}
