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
   */
  servicePrincipalFor(clientId: string, create: () => UserRecord): Promise<UserRecord>;
  count(): Promise<number>;
  /** Seeded users in seed order (not the automatic service principals), for the dashboard. */
  list(): Promise<UserRecord[]>;
}
