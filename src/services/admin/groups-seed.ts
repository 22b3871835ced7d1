// The `groups` seed key: groups with their members (usernames or nested groups) and attributes
// (docs/directory.md, "Seed"). Checked: names unique, members resolve, no group contains itself.
import { Type, type Static } from '@sinclair/typebox';
import type { SeedCodec } from '../../seed/codec.js';
import { DEFAULT_ORGANIZATION_RID, DEFAULT_REALM } from '../../platform-constants.js';
import { DIRECTORY } from './directory/part.js';
import { MemberSeed, memberProblems, memberSeeds, resolveMembers, seededGroupId, seededUsernames } from './seed-refs.js';

export const GroupSeed = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    // The platform's clients check that a group id is a UUID.
    id: Type.Optional(Type.String({ pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' })),
    description: Type.Optional(Type.String()),
    organizations: Type.Array(Type.String(), { default: [DEFAULT_ORGANIZATION_RID] }),
    members: Type.Array(MemberSeed, { default: [] }),
    attributes: Type.Record(Type.String(), Type.Array(Type.String()), { default: {} }),
  },
  { additionalProperties: false },
);
type GroupSeed = Static<typeof GroupSeed>;

/** The path of every group that contains itself (directly or through others), once per cycle member. */
function cycleProblems(part: readonly GroupSeed[], path: string): string[] {
  const children = new Map(part.map((g) => [g.name, g.members.flatMap((m) => (typeof m === 'string' ? [] : [m.group]))]));
  const problems: string[] = [];
  part.forEach((g, i) => {
    // Bounded: each group is visited at most once per start.
    const seen = new Set<string>();
    const stack = [...(children.get(g.name) ?? [])];
    while (stack.length > 0) {
      const next = stack.pop()!;
      if (next === g.name) {
        problems.push(`${path}[${i}].members: group "${g.name}" contains itself (through nested groups)`);
        return;
      }
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(...(children.get(next) ?? []));
    }
  });
  return problems;
}

export const groupsSeed: SeedCodec<GroupSeed[]> = {
  key: 'groups',
  // Names the users example's alice.
  example: [
    { name: 'analysts', organizations: [DEFAULT_ORGANIZATION_RID], members: ['alice'], attributes: {} },
    { name: 'everyone', organizations: [DEFAULT_ORGANIZATION_RID], members: [{ group: 'analysts' }], attributes: {} },
  ],
  schema: Type.Array(GroupSeed, { default: [] }),
  check(part: GroupSeed[], path, platform) {
    const users = seededUsernames(platform);
    const names = new Set(part.map((g) => g.name));
    return [
      ...part.flatMap((g, i) => (part.findIndex((o) => o.name === g.name) < i ? [`${path}[${i}].name: duplicate group "${g.name}"`] : [])),
      ...part.flatMap((g, i) => memberProblems(g.members, `${path}[${i}].members`, users, names)),
      ...cycleProblems(part, path),
    ];
  },
  async apply(part, { store, warn }) {
    const directory = store.part(DIRECTORY);
    for (const g of part) {
      await directory.putGroup({
        id: g.id ?? seededGroupId(g.name),
        name: g.name,
        realm: DEFAULT_REALM,
        organizations: g.organizations,
        attributes: g.attributes,
        ...(g.description !== undefined ? { description: g.description } : {}),
      });
    }
    // Members after every group exists, so that a group may name one listed after it.
    for (const g of part) {
      const id = g.id ?? seededGroupId(g.name);
      await directory.addGroupMembers(id, await resolveMembers(store, g.members, (m) => warn(`platform.groups "${g.name}": ${m}`)));
    }
  },
  async export({ store, dropped }) {
    const directory = store.part(DIRECTORY);
    const out: GroupSeed[] = [];
    for (const g of await directory.groups()) {
      const members = await memberSeeds(store, await directory.groupMembers(g.id), dropped, `groups "${g.name}"`);
      out.push({
        name: g.name,
        ...(g.id !== seededGroupId(g.name) ? { id: g.id } : {}),
        ...(g.description !== undefined ? { description: g.description } : {}),
        organizations: g.organizations,
        members,
        attributes: g.attributes,
      });
    }
    return out;
  },
  summary: async (store) => [{ one: 'group', many: 'groups', count: (await store.part(DIRECTORY).groups()).length }],
};
