// Groups and their members (`@osdk/foundry.admin` 2.38.0 Group and GroupMember; Group.replace as the Python SDK
// sends it; docs/directory.md, "Groups").
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Store } from '../../../store/store.js';
import { randomUuid } from '../../../ids.js';
import { invalidArgument, notFound } from '../../../errors.js';
import { DIRECTORY } from '../directory/part.js';
import type { GroupRecord, MemberRecord } from '../directory/records.js';
import { groupWire, memberWire } from '../directory-wire.js';
import { membersOf, wouldCycle } from '../principals.js';
import { pageOf } from '../../paging.js';
import { matches, parseSearch } from '../search.js';
import { isTrue, Paging, Transitive } from '../query-schemas.js';
import { DEFAULT_REALM } from '../../../platform-constants.js';

const READ = 'api:admin-read';
const WRITE = 'api:admin-write';
const P = '/api/v2/admin/groups';
const GroupParams = Type.Object({ groupId: Type.String() });
const GroupBody = Type.Object({
  name: Type.String({ minLength: 1 }),
  organizations: Type.Array(Type.String()),
  description: Type.Optional(Type.String()),
  attributes: Type.Record(Type.String(), Type.Array(Type.String())),
});
const PrincipalsBody = Type.Object({ principalIds: Type.Array(Type.String(), { maxItems: 1000 }), expiration: Type.Optional(Type.String()) });
const groupIdOf = (request: { params: unknown }) => ({ groupId: (request.params as { groupId?: string }).groupId ?? '' });

export function groupRoutes(parent: FastifyInstance, deps: { store: Store }): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const { store } = deps;
  const directory = () => store.part(DIRECTORY);

  const existing = async (groupId: string): Promise<GroupRecord> => {
    const group = await directory().group(groupId);
    if (!group) throw notFound('GroupNotFound', { groupId }).because(`no group has the id ${groupId}`);
    return group;
  };
  /** The body of create and replace, checked: organizations given, the name free (but for the group itself). */
  const checked = async (
    body: { name: string; organizations: string[]; description?: string; attributes: Record<string, string[]> },
    id: string,
  ): Promise<GroupRecord> => {
    if (body.organizations.length === 0) throw invalidArgument('InvalidGroupOrganizations').because('a group needs at least one organization rid');
    const clash = await directory().groupByName(body.name);
    if (clash && clash.id !== id)
      throw invalidArgument('GroupNameAlreadyExists', { groupName: body.name }).because(`group ${clash.id} is named "${body.name}" already`);
    return {
      id,
      name: body.name,
      realm: DEFAULT_REALM,
      organizations: body.organizations,
      attributes: body.attributes,
      ...(body.description !== undefined ? { description: body.description } : {}),
    };
  };

  app.get(P, {
    config: { auth: { kind: 'bearer', scope: READ } },
    schema: { querystring: Type.Object(Paging) },
    handler: async (request) => {
      const page = pageOf(await directory().groups(), request.query, 'groups');
      return { ...page, data: page.data.map(groupWire) };
    },
  });

  app.post(P, {
    config: { auth: { kind: 'bearer', scope: WRITE, denied: { errorName: 'CreateGroupPermissionDenied', parameters: () => ({}) } } },
    schema: { body: GroupBody },
    handler: async (request) => {
      const group = await checked(request.body, randomUuid());
      await directory().putGroup(group);
      return groupWire(group);
    },
  });

  app.get(`${P}/:groupId`, {
    config: { auth: { kind: 'bearer', scope: READ } },
    schema: { params: GroupParams },
    handler: async (request) => groupWire(await existing(request.params.groupId)),
  });

  app.put(`${P}/:groupId`, {
    config: { auth: { kind: 'bearer', scope: WRITE, denied: { errorName: 'ReplaceGroupPermissionDenied', parameters: groupIdOf } } },
    schema: { params: GroupParams, body: GroupBody },
    handler: async (request) => {
      const old = await existing(request.params.groupId);
      const group = { ...(await checked(request.body, old.id)), realm: old.realm };
      await directory().putGroup(group);
      return groupWire(group);
    },
  });

  app.delete(`${P}/:groupId`, {
    config: { auth: { kind: 'bearer', scope: WRITE, denied: { errorName: 'DeleteGroupPermissionDenied', parameters: groupIdOf } } },
    schema: { params: GroupParams },
    handler: async (request, reply) => {
      await existing(request.params.groupId);
      await directory().deleteGroup(request.params.groupId);
      return reply.code(204).send();
    },
  });

  app.post(`${P}/getBatch`, {
    config: { auth: { kind: 'bearer', scope: READ } },
    schema: { body: Type.Array(Type.Object({ groupId: Type.String() }), { maxItems: 500 }) },
    handler: async (request) => {
      const data: Record<string, ReturnType<typeof groupWire>> = {};
      for (const { groupId } of request.body) {
        const group = await directory().group(groupId);
        if (group) data[groupId] = groupWire(group);
      }
      return { data };
    },
  });

  app.post(`${P}/search`, {
    config: { auth: { kind: 'bearer', scope: READ, denied: { errorName: 'SearchGroupsPermissionDenied', parameters: () => ({}) } } },
    handler: async (request) => {
      const search = parseSearch(request.body);
      const found = (await directory().groups()).filter((g) => matches(search.value, [g.name, g.description]));
      const page = pageOf(found, search, `groups/search?q=${search.value}`);
      return { ...page, data: page.data.map(groupWire) };
    },
  });

  app.get(`${P}/:groupId/groupMembers`, {
    config: { auth: { kind: 'bearer', scope: READ } },
    schema: { params: GroupParams, querystring: Type.Object({ ...Transitive, ...Paging }) },
    handler: async (request) => {
      const group = await existing(request.params.groupId);
      const transitive = isTrue(request.query.transitive);
      const page = pageOf(await membersOf(directory(), group.id, transitive), request.query, `groups/${group.id}/groupMembers?transitive=${transitive}`);
      return { ...page, data: page.data.map(memberWire) };
    },
  });

  app.post(`${P}/:groupId/groupMembers/add`, {
    config: { auth: { kind: 'bearer', scope: WRITE, denied: { errorName: 'AddGroupMembersPermissionDenied', parameters: groupIdOf } } },
    schema: { params: GroupParams, body: PrincipalsBody },
    handler: async (request, reply) => {
      const group = await existing(request.params.groupId);
      const members = await resolvePrincipals(store, request.body.principalIds);
      for (const m of members) {
        if (m.principalType === 'GROUP' && (await wouldCycle(directory(), group.id, m.principalId))) {
          throw invalidArgument(
            'CircularDependency',
            { groupId: group.id, principalId: m.principalId },
            'A group cannot contain itself, directly or through nested groups.',
          ).because(`adding group ${m.principalId} to group ${group.id} would make ${group.id} contain itself`);
        }
      }
      await directory().addGroupMembers(group.id, members);
      return reply.code(204).send();
    },
  });

  app.post(`${P}/:groupId/groupMembers/remove`, {
    config: { auth: { kind: 'bearer', scope: WRITE, denied: { errorName: 'RemoveGroupMembersPermissionDenied', parameters: groupIdOf } } },
    schema: { params: GroupParams, body: PrincipalsBody },
    handler: async (request, reply) => {
      const group = await existing(request.params.groupId);
      await directory().removeGroupMembers(group.id, request.body.principalIds);
      return reply.code(204).send();
    },
  });
}

/** Each id as a user or a group; one that is neither is PrincipalNotFound and nothing is changed. */
export async function resolvePrincipals(store: Store, ids: readonly string[]): Promise<MemberRecord[]> {
  const out: MemberRecord[] = [];
  for (const id of ids) {
    if (await store.users.byId(id)) out.push({ principalId: id, principalType: 'USER' });
    else if (await store.part(DIRECTORY).group(id)) out.push({ principalId: id, principalType: 'GROUP' });
    else throw notFound('PrincipalNotFound', { principalId: id }).because(`no user or group has the id ${id}`);
  }
  return out;
}
