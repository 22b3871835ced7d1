// Wire shapes of groups, markings and their members (`@osdk/foundry.admin` 2.38.0's Group, Marking,
// MarkingCategory, GroupMember, MarkingMember; docs/directory.md).
import type { GroupRecord, MarkingCategoryRecord, MarkingRecord, MemberRecord } from './directory/records.js';

export function groupWire(g: GroupRecord) {
  return {
    id: g.id,
    name: g.name,
    ...(g.description !== undefined ? { description: g.description } : {}),
    realm: g.realm,
    organizations: g.organizations,
    attributes: g.attributes,
  };
}

export const memberWire = (m: MemberRecord) => ({ principalType: m.principalType, principalId: m.principalId });

export function markingWire(m: MarkingRecord) {
  return {
    id: m.id,
    categoryId: m.categoryId,
    name: m.name,
    ...(m.description !== undefined ? { description: m.description } : {}),
    createdTime: m.createdTime,
  };
}

export function categoryWire(c: MarkingCategoryRecord, markings: readonly string[]) {
  return {
    id: c.id,
    name: c.name,
    ...(c.description !== undefined ? { description: c.description } : {}),
    categoryType: c.categoryType,
    markingType: c.markingType,
    markings,
    createdTime: c.createdTime,
  };
}
