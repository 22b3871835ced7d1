// The directory's control side (docs/directory.md, "Dashboard"): each person with their groups (through nested
// ones too) and markings, for the dashboard and for tests. Loopback or the control token, like every control route.
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Backstage } from '../service-module.js';
import type { Store } from '../../store/store.js';
import { CONTROL_ROUTE } from '../../http/route-config.js';
import { DIRECTORY } from './directory/part.js';
import { groupsOf, markingsOfUser } from './principals.js';
import { pageOf } from './paging.js';

const ListQuery = Type.Object({ q: Type.Optional(Type.String()), pageToken: Type.Optional(Type.String()), pageSize: Type.Optional(Type.String()) });

function peopleRoutes(parent: FastifyInstance, deps: { store: Store }): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/_emulate/platform/directory/people', { config: CONTROL_ROUTE, schema: { querystring: ListQuery } }, async (request) => {
    const q = (request.query.q ?? '').toLowerCase();
    const users = (await deps.store.users.list()).filter((u) => q === '' || u.username.toLowerCase().includes(q));
    const page = pageOf(users, { pageSize: request.query.pageSize ?? '100', ...(request.query.pageToken ? { pageToken: request.query.pageToken } : {}) }, `people?q=${q}`);
    const directory = deps.store.part(DIRECTORY);
    const items = [];
    for (const u of page.data) {
      const names = [];
      for (const id of await groupsOf(directory, u.id, true)) names.push((await directory.group(id))?.name ?? id);
      items.push({ username: u.username, id: u.id, active: u.active, groups: names.sort().join(', '), markings: (await markingsOfUser(directory, u.id)).join(', ') });
    }
    return { items, ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}) };
  });
}

export const adminBackstage: Backstage = {
  routes: peopleRoutes,
  views: [
    {
      title: 'People',
      listPath: '/_emulate/platform/directory/people',
      columns: [
        { field: 'username', heading: 'User' },
        { field: 'groups', heading: 'Groups (with nested)' },
        { field: 'markings', heading: 'Markings' },
      ],
      topic: 'directory',
    },
  ],
};
