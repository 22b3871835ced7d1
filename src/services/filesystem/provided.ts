// The tree as its routes and the dashboard read it (docs/directory.md, "Other services' resources"): the
// filesystem's own nodes, and beside them what other services keep (datasets, streams, connections), asked of
// each service's ResourceProvider when a walk needs them. Their owner stays their truth: the tree copies a
// resource only when it changes something about it (trash, markings), and that copy, an own node with the same
// rid, wins over what the owner says. The state export walks the own nodes only: each owner exports its own.
import type { ProvidedResource, ResourceProvider, ServiceModule } from '../service-module.js';
import type { Store } from '../../store/store.js';
import type { NodeRecord, TreeRepo } from './store/records.js';

/** When the owner does not say: the tree needs a time and an author for every node. */
const UNKNOWN_TIME = '1970-01-01T00:00:00.000Z';

function asNode(r: ProvidedResource): NodeRecord {
  return {
    rid: r.rid,
    kind: 'RESOURCE',
    type: r.type,
    displayName: r.displayName,
    parentRid: r.parentFolderRid,
    trashed: false,
    markings: [],
    createdBy: 'system',
    createdTime: UNKNOWN_TIME,
    updatedBy: 'system',
    updatedTime: UNKNOWN_TIME,
  };
}

const byNameThenRid = (a: NodeRecord, b: NodeRecord) =>
  a.displayName < b.displayName ? -1 : a.displayName > b.displayName ? 1 : a.rid < b.rid ? -1 : a.rid > b.rid ? 1 : 0;

export const providersOf = (services: readonly ServiceModule[]): ResourceProvider[] =>
  services.flatMap((s) => (s.resources === undefined ? [] : [s.resources]));

/** Whether the rid is a resource some other service keeps (the tree may hold a copy of it too). */
export async function providedBy(store: Store, providers: readonly ResourceProvider[], rid: string): Promise<boolean> {
  for (const provider of providers) if (await provider.get(store, rid)) return true;
  return false;
}

export function treeWithProvided(own: TreeRepo, store: Store, providers: readonly ResourceProvider[]): TreeRepo {
  if (providers.length === 0) return own;
  const provided = async () => (await Promise.all(providers.map((p) => p.list(store)))).flat();
  return {
    put: (node) => own.put(node),
    remove: (rids) => own.remove(rids),
    async get(rid) {
      const node = await own.get(rid);
      if (node) return node;
      for (const provider of providers) {
        const found = await provider.get(store, rid);
        if (found) return asNode(found);
      }
      return undefined;
    },
    async children(parentRid) {
      const nodes = await own.children(parentRid);
      if (parentRid === undefined) return nodes; // spaces: never another service's
      const extra: NodeRecord[] = [];
      for (const r of await provided()) if (r.parentFolderRid === parentRid && !(await own.get(r.rid))) extra.push(asNode(r));
      return extra.length === 0 ? nodes : [...nodes, ...extra].sort(byNameThenRid);
    },
    async all() {
      const nodes = await own.all();
      const mine = new Set(nodes.map((n) => n.rid));
      return [...nodes, ...(await provided()).filter((r) => !mine.has(r.rid)).map(asNode)];
    },
  };
}
