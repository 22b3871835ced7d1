// Users: seeded humans and service users, plus service principals made for client-credentials tokens.

export type PrincipalType = 'human' | 'service';

export interface UserRecord {
  id: string;
  username: string;
  displayName: string;
  email?: string;
  givenName?: string;
  familyName?: string;
  realm: string;
  organizationRid: string;
  principalType: PrincipalType;
  active: boolean;
  oauthClientId?: string;
  attributes: Record<string, string[]>;
}

export interface UserRepo {
  /** Adds a seeded user; false (and no change) when the username is taken: the first definition wins. */
  insert(user: UserRecord): Promise<boolean>;
  /** Creates or replaces the seeded user of this username (control routes); true when created. */
  upsert(user: UserRecord): Promise<boolean>;
  byId(id: string): Promise<UserRecord | undefined>;
  /** Seeded users only: an automatic service principal never answers to a username. */
  byUsername(username: string): Promise<UserRecord | undefined>;
  /** Active human users in seed order, for the sign-in page. */
  listActiveHumans(): Promise<UserRecord[]>;
  /** Returns the updated user, or undefined when there is none of that name. */
  setActive(username: string, active: boolean): Promise<UserRecord | undefined>;
  /**
   * The principal of a client-credentials token: the seeded service user tied to the client by
   * `oauth_client_id`, else a service principal created once per client (kept apart from seeded names).
   * With `max` (given for open-mode clients only): when `max` principals made with a cap exist already, a new one
   * is not made and StoreFull is thrown; a seeded service user or an existing principal is still returned.
   */
  servicePrincipalFor(clientId: string, create: () => UserRecord, max?: number): Promise<UserRecord>;
  count(): Promise<number>;
  /** Seeded users in seed order (not the automatic service principals), for the dashboard. */
  list(): Promise<UserRecord[]>;
  /**
   * Seeded users in seed order from `offset`, at most `limit` of them plus one more when there are more (the
   * caller's sign of a next page); inactive ones only with `withInactive` (the directory's user list).
   */
  listPage(offset: number, limit: number, withInactive: boolean): Promise<UserRecord[]>;
}
