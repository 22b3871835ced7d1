// The OAuth service's seed key `oauth_clients` (docs/contracts.md §2). Redirect URIs must be absolute (authorize
// compares them exactly); a scope a slip away from a known one is warned about; no clients at all is open mode.
// The export writes client secrets only when asked (`?secrets=include`, docs/contracts.md §7) and names each one
// it leaves out.
import { Type, type Static } from '@sinclair/typebox';
import type { ClientRecord } from '../../store/store.js';
import type { SeedCodec } from '../../seed/codec.js';
import { byKey, defined, quote } from '../../seed/helpers.js';
import { ALL_GRANT_TYPES } from '../../platform-constants.js';
import { isAbsoluteRedirectUri } from './redirect-uris.js';
import { scopeWarnings } from './scope-warnings.js';
import { OAUTH_LIMIT_KEYS } from './caps.js';

export const GrantType = Type.Union(ALL_GRANT_TYPES.map((g) => Type.Literal(g)));

export const OAuthClientSeed = Type.Object(
  {
    client_id: Type.String({ minLength: 1 }),
    client_secret: Type.Optional(Type.String()),
    name: Type.Optional(Type.String()),
    redirect_uris: Type.Array(Type.String(), { default: [] }),
    grant_types: Type.Array(GrantType, { default: [...ALL_GRANT_TYPES] }),
    allowed_scopes: Type.Array(Type.String(), { default: [] }),
  },
  { additionalProperties: false },
);
export type OAuthClientSeed = Static<typeof OAuthClientSeed>;

export const clientFromSeed = (c: OAuthClientSeed): ClientRecord => ({
  clientId: c.client_id,
  clientSecret: c.client_secret ? c.client_secret : undefined,
  name: c.name ?? c.client_id,
  redirectUris: c.redirect_uris,
  grantTypes: c.grant_types,
  allowedScopes: c.allowed_scopes,
});

export const clientSeedOf = (c: ClientRecord) =>
  defined({
    client_id: c.clientId,
    client_secret: c.clientSecret,
    name: c.name,
    redirect_uris: c.redirectUris,
    grant_types: c.grantTypes,
    allowed_scopes: c.allowedScopes,
  });

function redirectUriProblems(clients: readonly OAuthClientSeed[], path: string): string[] {
  return clients.flatMap((client, i) =>
    client.redirect_uris.flatMap((uri, j) =>
      isAbsoluteRedirectUri(uri)
        ? []
        : [
            `${path}[${i}].redirect_uris[${j}]: must be an absolute http or https URI without a fragment, like http://localhost:8080/callback (is ${quote(uri)}); authorize compares redirect URIs exactly, so no other could ever match`,
          ],
    ),
  );
}

export const oauthClientsSeed: SeedCodec<OAuthClientSeed[]> = {
  key: 'oauth_clients',
  limits: OAUTH_LIMIT_KEYS,
  schema: Type.Array(OAuthClientSeed, { default: [] }),
  example: [
    {
      client_id: 'web-app',
      redirect_uris: ['http://localhost:3000/callback'],
      grant_types: ['authorization_code', 'refresh_token'],
      allowed_scopes: ['api:admin-read'],
    },
    { client_id: 'pipeline', client_secret: 'pipeline-secret', redirect_uris: [], grant_types: ['client_credentials'], allowed_scopes: [] },
  ],
  check: (clients, path) => redirectUriProblems(clients, path),
  async apply(clients, { store, warn }) {
    for (const message of scopeWarnings(clients)) warn(message);
    for (const [i, c] of clients.entries()) {
      if (!(await store.clients.insert(clientFromSeed(c))))
        warn(`platform.oauth_clients[${i}]: duplicate client_id "${c.client_id}" skipped (the first definition wins)`);
    }
    if (clients.length === 0) warn('no oauth_clients seeded: open mode, any client_id is accepted as a public client');
  },
  async export({ store, secrets, omitted }) {
    return (await store.clients.list()).map((c, i) => {
      const seed = clientSeedOf(c);
      if (secrets || seed.client_secret === undefined) return seed;
      omitted(`platform.oauth_clients[${i}].client_secret`);
      const { client_secret: _left, ...rest } = seed;
      return rest;
    }) as OAuthClientSeed[];
  },
  merge: (base, imported) => byKey(base, imported, (c) => c.client_id),
  summary: async (store) => [{ one: 'oauth client', many: 'oauth clients', count: await store.clients.count() }],
};
