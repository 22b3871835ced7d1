// References between the directory's seed keys: a member is a username or `{group: name}`
// (docs/directory.md, "Seed"). Shared by the groups and markings codecs.
import { Type, type Static } from '@sinclair/typebox';
import type { Store } from '../../store/store.js';
import type { MemberRecord } from './directory/records.js';
import { DIRECTORY } from './directory/part.js';
import { stableUuid } from '../../ids.js';

export const MemberSeed = Type.Union([Type.String({ minLength: 1 }), Type.Object({ group: Type.String({ minLength: 1 }) }, { additionalProperties: false })]);
export type MemberSeed = Static<typeof MemberSeed>;

/** The id a seeded group gets when the seed gives none: stable across restarts and resets. */
export const seededGroupId = (name: string) => stableUuid(`group:${name}`);

/** The usernames a seed defines (the default admin always exists). */
export function seededUsernames(platform: Record<string, unknown>): Set<string> {
  const users = Array.isArray(platform.users) ? (platform.users as Array<{ username?: unknown }>) : [];
  return new Set(['admin', ...users.map((u) => String(u.username))]);
}

export function seededGroupNames(platform: Record<string, unknown>): Set<string> {
  const groups = Array.isArray(platform.groups) ? (platform.groups as Array<{ name?: unknown }>) : [];
  return new Set(groups.map((g) => String(g.name)));
}

/** Problems of members that name nobody, each with its path. */
export function memberProblems(members: readonly MemberSeed[], path: string, users: Set<string>, groups: Set<string>): string[] {
  return members.flatMap((m, i) =>
    typeof m === 'string'
      ? users.has(m)
        ? []
        : [`${path}[${i}]: no user "${m}" in platform.users`]
      : groups.has(m.group)
        ? []
        : [`${path}[${i}].group: no group "${m.group}" in platform.groups`],
  );
}

/** Seed members as records; ones that do not resolve (checked before) are skipped with a warning. */
export async function resolveMembers(store: Store, members: readonly MemberSeed[], warn: (m: string) => void): Promise<MemberRecord[]> {
  const out: MemberRecord[] = [];
  for (const m of members) {
    if (typeof m === 'string') {
      const user = await store.users.byUsername(m);
      if (user) out.push({ principalId: user.id, principalType: 'USER' });
      else warn(`member "${m}" names no user; left out`);
    } else {
      const group = await store.part(DIRECTORY).groupByName(m.group);
      if (group) out.push({ principalId: group.id, principalType: 'GROUP' });
      else warn(`member {group: ${m.group}} names no group; left out`);
    }
  }
  return out;
}

/** Member records back to the seed's words; a principal the seed cannot name (an automatic one) is dropped. */
export async function memberSeeds(store: Store, members: readonly MemberRecord[], dropped: (line: string) => void, where: string): Promise<MemberSeed[]> {
  const out: MemberSeed[] = [];
  for (const m of members) {
    if (m.principalType === 'GROUP') {
      const group = await store.part(DIRECTORY).group(m.principalId);
      if (group) out.push({ group: group.name });
    } else {
      const user = await store.users.byId(m.principalId);
      if (user?.username && (await store.users.byUsername(user.username))?.id === user.id) out.push(user.username);
      else dropped(`${where}: member ${m.principalId} is not a seeded user`);
    }
  }
  return out;
}
