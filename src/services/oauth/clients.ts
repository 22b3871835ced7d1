// Looking up clients, with open mode (docs/contracts.md §2): when no client is seeded, any client_id is a public
// client that may use every grant, any absolute http(s) redirect URI and any scope.
import type { ClientRecord, Store } from '../../store/store.js';
import { ALL_GRANT_TYPES } from '../../platform-constants.js';

export interface ResolvedClient {
  client: ClientRecord;
  /** True in open mode: the client was not seeded. */
  open: boolean;
}

export async function resolveClient(store: Store, clientId: string): Promise<ResolvedClient | undefined> {
  // A seeded client is the common case: one store call. Only an unknown id asks whether any client is seeded.
  const client = await store.clients.byId(clientId);
  if (client) return { client, open: false };
  if ((await store.clients.count()) === 0) {
    return { open: true, client: { clientId, name: clientId, redirectUris: [], grantTypes: [...ALL_GRANT_TYPES], allowedScopes: [] } };
  }
  return undefined;
}
