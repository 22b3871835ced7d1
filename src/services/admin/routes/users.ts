// Users of the directory (`@osdk/foundry.admin` 2.38.0 User and GroupMembership; docs/directory.md, "Users").
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { OAuthDeps } from '../../oauth/deps.js';
import { revokeEverythingOfUser } from '../../oauth/refresh-tokens.js';
import type { UserRecord } from '../../../store/users.js';
import { invalidArgument, notFound } from '../../../errors.js';
import { userWire } from '../shapes.js';
import { DIRECTORY } from '../directory/part.js';
import { groupsOf, markingsOfUser } from '../principals.js';
import { offsetOf, pageOf, pageSizeOf, tokenFor } from '../../paging.js';
import { matches, parseSearch } from '../search.js';
import { isTrue, Paging, Transitive } from '../query-schemas.js';

const READ = 'api:admin-read';
const WRITE = 'api:admin-write';
const P = '/api/v2/admin/users';
const Status = Type.Union([Type.Literal('ACTIVE'), Type.Literal('DELETED')]);
const UserParams = Type.Object({ userId: Type.String() });
const userIdOf = (request: { params: unknown }) => ({ userId: (request.params as { userId?: string }).userId ?? '' });

export function userRoutes(parent: FastifyInstance, deps: OAuthDeps): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const { store } = deps;
  const directory = () => store.part(DIRECTORY);

  const existing = async (userId: string): Promise<UserRecord> => {
    const user = await store.users.byId(userId);
    if (!user) throw notFound('UserNotFound', { userId }).because(`no user has the id ${userId}`);
    return user;
  };
  /** A user of the asked status; no status asked: either. */
  const withStatus = (user: UserRecord, status: 'ACTIVE' | 'DELETED' | undefined) => {
    if (status === 'ACTIVE' && !user.active) throw invalidArgument('UserDeleted', { principalId: user.id }).because(`user ${user.username} is deleted`);
    if (status === 'DELETED' && user.active) throw invalidArgument('UserIsActive', { principalId: user.id }).because(`user ${user.username} is active`);
    return user;
  };

  app.get(P, {
    config: { auth: { kind: 'bearer', scope: READ } },
    schema: { querystring: Type.Object({ include: Type.Optional(Status), ...Paging }) },
    handler: async (request) => {
      const { include, pageSize, pageToken } = request.query;
      // include=DELETED lists deleted users beside the active ones; the default lists active users only.
      const query = `users?include=${include ?? 'ACTIVE'}`;
      const size = pageSizeOf(pageSize);
      const offset = offsetOf(pageToken, query);
      const users = await store.users.listPage(offset, size, include === 'DELETED');
      const more = users.length > size;
      return { data: users.slice(0, size).map(userWire), ...(more ? { nextPageToken: tokenFor(query, offset + size) } : {}) };
    },
  });

  app.get(`${P}/:userId`, {
    config: { auth: { kind: 'bearer', scope: READ } },
    schema: { params: UserParams, querystring: Type.Object({ status: Type.Optional(Status) }) },
    handler: async (request) => userWire(withStatus(await existing(request.params.userId), request.query.status)),
  });

  app.post(`${P}/getBatch`, {
    config: { auth: { kind: 'bearer', scope: READ } },
    schema: { body: Type.Array(Type.Object({ userId: Type.String(), status: Type.Optional(Status) }), { maxItems: 500 }) },
    handler: async (request) => {
      // Ids that name no user (or a user of another status) are left out of the map, as the platform does.
      const data: Record<string, ReturnType<typeof userWire>> = {};
      for (const { userId, status } of request.body) {
        const user = await store.users.byId(userId);
        if (user && (status === undefined || (status === 'ACTIVE') === user.active)) data[userId] = userWire(user);
      }
      return { data };
    },
  });

  app.post(`${P}/search`, {
    config: { auth: { kind: 'bearer', scope: READ, denied: { errorName: 'SearchUsersPermissionDenied', parameters: () => ({}) } } },
    handler: async (request) => {
      const search = parseSearch(request.body);
      const found = (await store.users.list()).filter(
        (u) => u.active && matches(search.value, [u.username, u.givenName, u.familyName, u.email, u.displayName]),
      );
      const page = pageOf(found, search, `users/search?q=${search.value}`);
      return { ...page, data: page.data.map(userWire) };
    },
  });

  app.get(`${P}/:userId/getMarkings`, {
    config: { auth: { kind: 'bearer', scope: READ, denied: { errorName: 'GetMarkingsUserPermissionDenied', parameters: userIdOf } } },
    schema: { params: UserParams },
    handler: async (request) => {
      const user = await existing(request.params.userId);
      return { view: await markingsOfUser(directory(), user.id) };
    },
  });

  app.get(`${P}/:userId/profilePicture`, {
    config: { auth: { kind: 'bearer', scope: READ, denied: { errorName: 'GetProfilePictureOfUserPermissionDenied', parameters: userIdOf } } },
    schema: { params: UserParams },
    handler: async (request, reply) => {
      const user = await existing(request.params.userId);
      const picture = (await directory().setting(`profile-picture:${user.id}`)) as { contentType: string; base64: string } | undefined;
      if (!picture) throw notFound('ProfilePictureNotFound', { userId: user.id }).because(`user ${user.username} has no profile picture`);
      return reply.type(picture.contentType).send(Buffer.from(picture.base64, 'base64'));
    },
  });

  app.get(`${P}/:userId/groupMemberships`, {
    config: { auth: { kind: 'bearer', scope: READ } },
    schema: { params: UserParams, querystring: Type.Object({ ...Transitive, ...Paging }) },
    handler: async (request) => {
      const user = await existing(request.params.userId);
      const transitive = isTrue(request.query.transitive);
      const ids = await groupsOf(directory(), user.id, transitive);
      const page = pageOf(ids, request.query, `users/${user.id}/groupMemberships?transitive=${transitive}`);
      return { ...page, data: page.data.map((groupId) => ({ groupId })) };
    },
  });

  app.delete(`${P}/:userId`, {
    config: { auth: { kind: 'bearer', scope: WRITE, denied: { errorName: 'DeleteUserPermissionDenied', parameters: userIdOf } } },
    schema: { params: UserParams },
    handler: async (request, reply) => {
      const user = await existing(request.params.userId);
      // A deleted user keeps its record (status DELETED) and its groups; its tokens stop working at once.
      if (user.username) await store.users.setActive(user.username, false);
      await revokeEverythingOfUser(deps, user.id);
      return reply.code(204).send();
    },
  });

  app.post(`${P}/:userId/revokeAllTokens`, {
    config: { auth: { kind: 'bearer', scope: WRITE, denied: { errorName: 'RevokeAllTokensUserPermissionDenied', parameters: userIdOf } } },
    schema: { params: UserParams },
    handler: async (request, reply) => {
      const user = await existing(request.params.userId);
      await revokeEverythingOfUser(deps, user.id);
      return reply.code(204).send();
    },
  });
}
