// The admin service's seed keys (docs/contracts.md §3): `users` and `enrollment`. The default admin is created
// unless the seed lists a user `admin`. Records -> seed is the inverse: applying the export gives the same users.
import { Type, type Static } from '@sinclair/typebox';
import type { UserRecord } from '../../store/store.js';
import type { SeedCodec } from '../../seed/codec.js';
import { byKey, defined } from '../../seed/helpers.js';
import { StringMap } from '../../string-map.js';
import { DEFAULT_ORGANIZATION_RID, DEFAULT_REALM } from '../../platform-constants.js';
import { stableUuid } from '../../ids.js';

const closed = { additionalProperties: false } as const;

export const UserSeed = Type.Object(
  {
    username: Type.String({ minLength: 1 }),
    display_name: Type.Optional(Type.String()),
    email: Type.Optional(Type.String()),
    given_name: Type.Optional(Type.String()),
    family_name: Type.Optional(Type.String()),
    realm: Type.String({ default: DEFAULT_REALM }),
    organization_rid: Type.String({ default: DEFAULT_ORGANIZATION_RID }),
    principal_type: Type.Union([Type.Literal('human'), Type.Literal('service')], { default: 'human' }),
    active: Type.Boolean({ default: true }),
    oauth_client_id: Type.Optional(Type.String()),
    attributes: StringMap(Type.Array(Type.String()), { default: {} }),
  },
  closed,
);
export type UserSeed = Static<typeof UserSeed>;

const EnrollmentSeed = Type.Object(
  {
    rid: Type.String({ default: 'ri.enrollment..enrollment.default' }),
    name: Type.String({ default: 'Default Enrollment' }),
  },
  { ...closed, default: {} },
);
type EnrollmentSeed = Static<typeof EnrollmentSeed>;

const DEFAULT_ADMIN: UserSeed = {
  username: 'admin',
  display_name: 'Admin',
  given_name: 'Admin',
  email: 'admin@localhost',
  realm: DEFAULT_REALM,
  organization_rid: DEFAULT_ORGANIZATION_RID,
  principal_type: 'human',
  active: true,
  attributes: {},
};

/** Whether a seed's users leave room for the default admin. */
export const wantsDefaultAdmin = (users: readonly UserSeed[] | undefined): boolean => !(users ?? []).some((u) => u.username === DEFAULT_ADMIN.username);

/**
 * A reset derives every seeded user again from the same seed objects: each one's id (a SHA-256) is taken once and
 * kept with the object (with 10,000 users the hashes were about a third of a reset, and their garbage more).
 */
const seededIds = new WeakMap<UserSeed, string>();

function seededUserId(u: UserSeed): string {
  let id = seededIds.get(u);
  if (id === undefined) seededIds.set(u, (id = stableUuid(`user:${u.username}`)));
  return id;
}

export function userFromSeed(u: UserSeed): UserRecord {
  return {
    id: seededUserId(u),
    username: u.username,
    displayName: u.display_name ?? u.username,
    email: u.email,
    givenName: u.given_name,
    familyName: u.family_name,
    realm: u.realm,
    organizationRid: u.organization_rid,
    principalType: u.principal_type,
    active: u.active,
    oauthClientId: u.oauth_client_id,
    attributes: u.attributes,
  };
}

export const userSeedOf = (u: UserRecord) =>
  defined({
    username: u.username,
    display_name: u.displayName,
    email: u.email,
    given_name: u.givenName,
    family_name: u.familyName,
    realm: u.realm,
    organization_rid: u.organizationRid,
    principal_type: u.principalType,
    active: u.active,
    oauth_client_id: u.oauthClientId,
    attributes: u.attributes,
  });

export const usersSeed: SeedCodec<UserSeed[]> = {
  key: 'users',
  schema: Type.Array(UserSeed, { default: [] }),
  example: [
    {
      username: 'alice',
      display_name: 'Alice',
      email: 'alice@example.test',
      realm: DEFAULT_REALM,
      organization_rid: DEFAULT_ORGANIZATION_RID,
      principal_type: 'human',
      active: true,
      attributes: { team: ['blue'] },
    },
  ],
  async apply(users, { store, warn }) {
    if (wantsDefaultAdmin(users)) await store.users.insert(userFromSeed(DEFAULT_ADMIN));
    for (const [i, u] of users.entries()) {
      if (!(await store.users.insert(userFromSeed(u)))) warn(`platform.users[${i}]: duplicate username "${u.username}" skipped (the first definition wins)`);
    }
  },
  export: async ({ store }) => (await store.users.list()).map(userSeedOf) as UserSeed[],
  merge: (base, imported) => byKey(base, imported, (u) => u.username),
  summary: async (store, users) => [
    { one: 'user', many: 'users', count: await store.users.count(), ...(wantsDefaultAdmin(users) ? { note: 'incl. default admin' } : {}) },
  ],
};

export const enrollmentSeed: SeedCodec<EnrollmentSeed> = {
  key: 'enrollment',
  schema: EnrollmentSeed,
  example: { rid: 'ri.enrollment..enrollment.example', name: 'Example Enrollment' },
  apply: async (enrollment, { store, clock }) => store.enrollment.set({ ...enrollment, createdTime: new Date(clock.now()).toISOString() }),
  async export({ store }) {
    const enrollment = await store.enrollment.get();
    return { rid: enrollment.rid, name: enrollment.name };
  },
};
