// Connections as resources of the filesystem's tree (docs/directory.md, "Other services' resources"). Only
// their names and places leave: never a secret.
import type { ProvidedResource, ResourceProvider } from '../service-module.js';
import type { ConnectionRecord } from '../../store/connections.js';
import { CONNECTIONS } from '../../store/core-parts.js';

const asResource = (c: ConnectionRecord): ProvidedResource => ({
  rid: c.rid,
  displayName: c.displayName,
  type: 'MAGRITTE_SOURCE',
  parentFolderRid: c.parentFolderRid,
});

export const connectionResources: ResourceProvider = {
  get: async (store, rid) => {
    const connection = await store.part(CONNECTIONS).byRid(rid);
    return connection && asResource(connection);
  },
  list: async (store) => (await store.part(CONNECTIONS).list()).map(asResource),
};
