// The admin service's control routes (docs/contracts.md §7): list users, create or update one from a seed entry,
// switch one on or off. A reset forgets these changes: it goes back to the seed.
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ServiceDeps } from '../../service-module.js';
import { CONTROL_ROUTE } from '../../../http/route-config.js';
import { notFound } from '../../../errors.js';
import { seedEntry } from '../../../seed/entry.js';
import { userFromSeed, userSeedOf, usersSeed } from '../seed.js';

const Key = Type.String({ minLength: 1, maxLength: 256 });
const AnyObject = Type.Object({}, { additionalProperties: true });
const Username = Type.Object({ username: Type.String() });

export function usersBackstage(parent: FastifyInstance, { store }: ServiceDeps): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();

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

  app.put(
    '/_emulate/platform/users/:username',
    { config: CONTROL_ROUTE, schema: { params: Type.Object({ username: Key }), body: AnyObject } },
    async (request) => {
      const seed = seedEntry(usersSeed, { ...request.body, username: request.params.username });
      const created = await store.users.upsert(userFromSeed(seed));
      const user = await store.users.byUsername(seed.username);
      return { created, user: userSeedOf(user!) };
    },
  );

  for (const [action, active] of [
    ['activate', true],
    ['deactivate', false],
  ] as const) {
    app.post(`/_emulate/platform/users/:username/${action}`, { config: CONTROL_ROUTE, schema: { params: Username } }, async (request) => {
      const user = await store.users.setActive(request.params.username, active);
      if (!user) throw notFound('UserNotFound', { username: request.params.username });
      return { username: user.username, active: user.active };
    });
  }
}
