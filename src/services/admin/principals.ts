// Transitive group membership (docs/directory.md, "Nested groups"): a user is in a group when they are a member
// of it or of any group that is a member of it, at any depth. Walks are bounded by the number of groups (each
// group is visited once), so a cycle that slipped in could never hang a request.
import type { DirectoryRepo, MemberRecord } from './directory/records.js';

/** The groups a principal belongs to: direct only, or through nested groups too (level by level, sorted per level). */
export async function groupsOf(repo: DirectoryRepo, principalId: string, transitive: boolean): Promise<string[]> {
  const direct = await repo.groupsHolding([principalId]);
  if (!transitive) return direct;
  const seen = new Set<string>(direct);
  let frontier = direct;
  while (frontier.length > 0) {
    const next = (await repo.groupsHolding(frontier)).filter((g) => !seen.has(g));
    for (const g of next) seen.add(g);
    frontier = next;
  }
  return [...seen];
}

/** A group's members: direct only, or every user and group below it (each once, nearest first). */
export async function membersOf(repo: DirectoryRepo, groupId: string, transitive: boolean): Promise<MemberRecord[]> {
  if (!transitive) return repo.groupMembers(groupId);
  const edges = await repo.allGroupMembers();
  const children = new Map<string, MemberRecord[]>();
  for (const e of edges) {
    const list = children.get(e.groupId) ?? [];
    list.push({ principalId: e.principalId, principalType: e.principalType });
    children.set(e.groupId, list);
  }
  const seen = new Map<string, MemberRecord>();
  const visited = new Set<string>([groupId]);
  const queue = [groupId];
  while (queue.length > 0) {
    const g = queue.shift()!;
    for (const m of children.get(g) ?? []) {
      if (m.principalId === groupId) continue;
      if (!seen.has(m.principalId)) seen.set(m.principalId, m);
      if (m.principalType === 'GROUP' && !visited.has(m.principalId)) {
        visited.add(m.principalId);
        queue.push(m.principalId);
      }
    }
  }
  return [...seen.values()];
}

/** True when making `memberGroupId` a member of `groupId` would make a group contain itself. */
export async function wouldCycle(repo: DirectoryRepo, groupId: string, memberGroupId: string): Promise<boolean> {
  if (groupId === memberGroupId) return true;
  const below = await membersOf(repo, memberGroupId, true);
  return below.some((m) => m.principalId === groupId);
}

/** The markings a user may view: theirs, and those of every group they are in (transitively). */
export async function markingsOfUser(repo: DirectoryRepo, userId: string): Promise<string[]> {
  const groups = await groupsOf(repo, userId, true);
  return repo.markingsOfPrincipals([userId, ...groups]);
}
