// The tree's control side (docs/directory.md, "Dashboard"): every node with its path, kind and trash status,
// in path order, for the dashboard and for tests. Loopback or the control token, like every control route.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Backstage, ServiceModule } from '../service-module.js';
import { providersOf, treeWithProvided } from './provided.js';
import type { Store } from '../../store/store.js';
import { CONTROL_ROUTE } from '../../http/route-config.js';
import { TREE } from './store/part.js';
import { markingsOf, pathOf, place, trashStatusOf } from './tree.js';
import { ViewListQuery, searchOf, viewPage } from '../view-pages.js';

function treeRoutes(parent: FastifyInstance, deps: { store: Store; services: readonly ServiceModule[] }): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/_emulate/platform/filesystem/tree', { config: CONTROL_ROUTE, schema: { querystring: ViewListQuery } }, async (request) => {
    const q = searchOf(request.query);
    const tree = treeWithProvided(deps.store.part(TREE), deps.store, providersOf(deps.services));
    const rows = [];
    for (const node of await tree.all()) {
      const placed = await place(tree, node);
      rows.push({
        path: pathOf(placed),
        rid: node.rid,
        kind: node.kind,
        type: node.type,
        trashStatus: trashStatusOf(placed),
        markings: markingsOf(placed).join(', '),
      });
    }
    const matching = rows.filter((r) => q === '' || r.path.toLowerCase().includes(q)).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return viewPage(matching, request.query, `tree?q=${q}`);
  });
}

export const filesystemBackstage: Backstage = {
  routes: treeRoutes,
  views: [
    {
      title: 'Files',
      listPath: '/_emulate/platform/filesystem/tree',
      columns: [
        { field: 'path', heading: 'Path' },
        { field: 'kind', heading: 'Kind' },
        { field: 'trashStatus', heading: 'Trash' },
        { field: 'markings', heading: 'Markings' },
      ],
      topic: 'filesystem',
    },
  ],
};
