// The directory's control side (docs/directory.md, "Dashboard"): each person with their groups (through nested
// ones too) and markings, for the dashboard and for tests; groups created, replaced and removed at run time. Loopback or the control token, like every control route.
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Backstage } from '../../service-module.js';
import type { Store } from '../../../store/store.js';
import { CONTROL_ROUTE } from '../../../http/route-config.js';
import { DIRECTORY } from '../directory/part.js';
import { groupsOf, markingsOfUser } from '../principals.js';
import { ViewListQuery, searchOf, viewAnswer, viewPageOf } from '../../view-pages.js';
import { Value } from '@sinclair/typebox/value';
import type { Static } from '@sinclair/typebox';
import { invalidArgument, notFound } from '../../../errors.js';
import { DEFAULT_REALM } from '../../../platform-constants.js';
import { GroupSeed } from '../groups-seed.js';
import { seededGroupId } from '../seed-refs.js';
import { wouldCycle } from '../principals.js';

type GroupSeedEntry = Static<typeof GroupSeed>;

function peopleRoutes(parent: FastifyInstance, deps: { store: Store }): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/_emulate/platform/directory/people', { config: CONTROL_ROUTE, schema: { querystring: ViewListQuery } }, async (request) => {
    const q = searchOf(request.query);
    const users = (await deps.store.users.list()).filter((u) => q === '' || u.username.toLowerCase().includes(q));
    const page = viewPageOf(users, request.query, `people?q=${q}`);
    const directory = deps.store.part(DIRECTORY);
    const items = [];
    for (const u of page.data) {
      const names = [];
      for (const id of await groupsOf(directory, u.id, true)) names.push((await directory.group(id))?.name ?? id);
      items.push({
        username: u.username,
        id: u.id,
        active: u.active,
        groups: names.sort().join(', '),
        markings: (await markingsOfUser(directory, u.id)).join(', '),
      });
    }
    return viewAnswer(items, page);
  });
}

/** PUT creates or replaces a group by name (the seed's entry shape); DELETE removes it. docs/directory.md. */
function groupControlRoutes(parent: FastifyInstance, deps: { store: Store }): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const NameParam = Type.Object({ name: Type.String({ minLength: 1 }) });
  const bad = (field: string, why: string) => invalidArgument('InvalidArgument', { field }, `Invalid group: ${field}: ${why}`).because(`${field}: ${why}`);

  app.put(
    '/_emulate/platform/groups/:name',
    { config: CONTROL_ROUTE, schema: { params: NameParam, body: Type.Record(Type.String(), Type.Unknown()) } },
    async (request) => {
      const entry = Value.Default(GroupSeed, { ...request.body, name: request.params.name }) as GroupSeedEntry;
      const first = [...Value.Errors(GroupSeed, entry)][0];
      if (first) throw bad(first.path.slice(1).replace(/\//g, '.') || 'body', first.message);
      const directory = deps.store.part(DIRECTORY);
      const old = await directory.groupByName(entry.name);
      const id = old?.id ?? entry.id ?? seededGroupId(entry.name);
      const members = [];
      for (const [i, m] of entry.members.entries()) {
        if (typeof m === 'string') {
          const user = await deps.store.users.byUsername(m);
          if (!user) throw bad(`members[${i}]`, `no user "${m}"`);
          members.push({ principalId: user.id, principalType: 'USER' as const });
        } else {
          const group = await directory.groupByName(m.group);
          if (!group) throw bad(`members[${i}].group`, `no group "${m.group}"`);
          if (await wouldCycle(directory, id, group.id))
            throw bad(`members[${i}].group`, `group "${m.group}" holds "${entry.name}" already: a group cannot contain itself`);
          members.push({ principalId: group.id, principalType: 'GROUP' as const });
        }
      }
      await directory.putGroup({
        id,
        name: entry.name,
        realm: old?.realm ?? DEFAULT_REALM,
        organizations: entry.organizations,
        attributes: entry.attributes,
        ...(entry.description !== undefined ? { description: entry.description } : {}),
      });
      await directory.removeGroupMembers(
        id,
        (await directory.groupMembers(id)).map((m) => m.principalId),
      );
      await directory.addGroupMembers(id, members);
      return { created: old === undefined, group: { id, name: entry.name, members: entry.members } };
    },
  );

  app.delete('/_emulate/platform/groups/:name', { config: CONTROL_ROUTE, schema: { params: NameParam } }, async (request) => {
    const directory = deps.store.part(DIRECTORY);
    const group = await directory.groupByName(request.params.name);
    if (!group) throw notFound('GroupNotFound', { groupName: request.params.name }).because(`no group is named "${request.params.name}"`);
    await directory.deleteGroup(group.id);
    return { deleted: group.id };
  });
}

export const directoryBackstage: Backstage = {
  routes(app, deps) {
    peopleRoutes(app, deps);
    groupControlRoutes(app, deps);
  },
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
