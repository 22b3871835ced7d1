// Read-only views of the state for the dashboard and for test suites (CONTRACTS §7): users, OAuth clients,
// live tokens (revocable one by one), connections, ontologies. Nothing here ever carries a secret value: a
// client shows whether it has a secret, a connection the NAMES of its secrets, a token a fingerprint that
// identifies it but cannot be used as it.
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AccessTokenRecord, DomainRecord, Store } from '../../store/store.js';
import type { Clock } from '../../clock.js';
import { notFound } from '../../errors.js';
import { CONTROL_ROUTE } from '../../http/route-config.js';
import { ontologyDefinitions } from './ontology-view.js';

/** Most tokens a listing shows (newest first); the count says how many there are in all. */
const TOKEN_LIST_LIMIT = 500;

/** A stable, non-secret handle for a token: 16 hex digits of its SHA-256. */
export const tokenId = (token: string): string => createHash('sha256').update(token).digest('hex').slice(0, 16);

const iso = (ms: number) => new Date(ms).toISOString();

function domainView(domain: DomainRecord) {
  return { host: domain.host, port: domain.port ?? null, scheme: domain.scheme ?? null, auth: domain.auth?.type ?? null };
}

export function listingRoutes(parent: FastifyInstance, deps: { store: Store; clock: Clock }): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const { store, clock } = deps;

  app.get('/_emulate/platform/users', { config: CONTROL_ROUTE }, async () => ({
    users: (await store.users.list()).map((u) => ({
      id: u.id,
      username: u.username,
      displayName: u.displayName,
      email: u.email ?? null,
      principalType: u.principalType,
      active: u.active,
      oauthClientId: u.oauthClientId ?? null,
    })),
  }));

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

  app.get('/_emulate/platform/tokens', { config: CONTROL_ROUTE }, async () => {
    const now = clock.now();
    const [records, stored] = await Promise.all([store.tokens.listAccess(TOKEN_LIST_LIMIT), store.tokens.countAccess()]);
    const live = records.filter((t) => t.expiresAt > now);
    const tokens = await Promise.all(live.map((t) => tokenView(store, t, now)));
    return { tokens, total: stored, truncated: stored > records.length };
  });

  app.delete('/_emulate/platform/tokens/:tokenId', { config: CONTROL_ROUTE, schema: { params: Type.Object({ tokenId: Type.String({ pattern: '^[0-9a-f]{16}$' }) }) } }, async (request) => {
    const all = await store.tokens.listAccess(Number.MAX_SAFE_INTEGER);
    const match = all.find((t) => tokenId(t.token) === request.params.tokenId);
    if (!match || !(await store.tokens.revokeAccess(match.token))) throw notFound('TokenNotFound', { tokenId: request.params.tokenId });
    return { revoked: true, id: request.params.tokenId };
  });

  app.get('/_emulate/platform/connections', { config: CONTROL_ROUTE }, async () => ({
    connections: (await store.connections.list()).map((c) => ({
      rid: c.rid,
      displayName: c.displayName,
      domains: c.domains.map(domainView),
      // Names only: the values never leave the store.
      secretNames: Object.keys(c.secrets).sort(),
    })),
  }));

  app.get('/_emulate/platform/ontologies', { config: CONTROL_ROUTE }, async () => ({
    ontologies: await Promise.all(
      (await store.ontologies.list()).map(async (o) => ({
        rid: o.rid,
        apiName: o.apiName,
        displayName: o.displayName,
        description: o.description,
        queries: [...o.queries].map(([apiName, result]) => ({ apiName, resultBytes: result.length })),
        ...(await ontologyDefinitions(store, o)),
      })),
    ),
  }));
}

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
