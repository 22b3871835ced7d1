// The records of the directory part: groups and their members, marking categories, markings and their members.
// Users stay in the users part; a member names a user or a group by id (docs/directory.md).

export type PrincipalKind = 'USER' | 'GROUP';

export interface GroupRecord {
  id: string;
  name: string;
  description?: string;
  realm: string;
  organizations: string[];
  attributes: Record<string, string[]>;
}

/** A direct member of a group, or of a marking. */
export interface MemberRecord {
  principalId: string;
  principalType: PrincipalKind;
}

export interface MarkingCategoryRecord {
  id: string;
  name: string;
  description?: string;
  categoryType: 'CONJUNCTIVE' | 'DISJUNCTIVE';
  markingType: 'MANDATORY' | 'CBAC';
  createdTime: string;
}

export interface MarkingRecord {
  id: string;
  categoryId: string;
  name: string;
  description?: string;
  createdTime: string;
}

export interface DirectoryRepo {
  /** Creates or replaces the group of this id. */
  putGroup(group: GroupRecord): Promise<void>;
  group(id: string): Promise<GroupRecord | undefined>;
  groupByName(name: string): Promise<GroupRecord | undefined>;
  /** Every group, ordered by name then id. */
  groups(): Promise<GroupRecord[]>;
  /** Removes the group, its own members and every membership and marking membership naming it. */
  deleteGroup(id: string): Promise<boolean>;

  addGroupMembers(groupId: string, members: readonly MemberRecord[]): Promise<void>;
  removeGroupMembers(groupId: string, principalIds: readonly string[]): Promise<void>;
  /** Direct members of a group, in the order they were added. */
  groupMembers(groupId: string): Promise<MemberRecord[]>;
  /** Every (group, member) edge: what transitive closure and the export walk. */
  allGroupMembers(): Promise<Array<MemberRecord & { groupId: string }>>;
  /** Groups any of the principals is a direct member of, each once, sorted: one level of a membership walk. */
  groupsHolding(principalIds: readonly string[]): Promise<string[]>;
  /** Removes every edge naming the principal as a member: a deleted user leaves its groups and markings. */
  forgetPrincipal(principalId: string): Promise<void>;

  putCategory(category: MarkingCategoryRecord): Promise<void>;
  category(id: string): Promise<MarkingCategoryRecord | undefined>;
  /** Ordered by id. */
  categories(): Promise<MarkingCategoryRecord[]>;

  putMarking(marking: MarkingRecord): Promise<void>;
  marking(id: string): Promise<MarkingRecord | undefined>;
  /** Ordered by id. */
  markings(): Promise<MarkingRecord[]>;
  addMarkingMembers(markingId: string, members: readonly MemberRecord[]): Promise<void>;
  removeMarkingMembers(markingId: string, principalIds: readonly string[]): Promise<void>;
  markingMembers(markingId: string): Promise<MemberRecord[]>;
  /** Markings any of the principals is a direct member of. */
  markingsOfPrincipals(principalIds: readonly string[]): Promise<string[]>;

  /** A small named document (the CBAC banner); undefined when none was set. */
  setting(key: string): Promise<unknown>;
  putSetting(key: string, value: unknown): Promise<void>;
}
