// OAuth clients as seeded.

export type GrantType = 'authorization_code' | 'refresh_token' | 'client_credentials';

export interface ClientRecord {
  clientId: string;
  /** Undefined for a public client. */
  clientSecret?: string;
  name: string;
  redirectUris: string[];
  grantTypes: GrantType[];
  /** Empty means any scope is accepted. */
  allowedScopes: string[];
}

export interface ClientRepo {
  /** False when the client id is taken: the first definition wins. */
  insert(client: ClientRecord): Promise<boolean>;
  /** Creates or replaces the client of this id (control routes); true when created. */
  upsert(client: ClientRecord): Promise<boolean>;
  byId(clientId: string): Promise<ClientRecord | undefined>;
  /**
   * The client as this instance last read it, with no store call (the memory store's record is always current;
   * PostgreSQL's may be stale), so only for a step that checks it again (TokenRepo.insertAccessForClientPrincipal's
   * `asOf`).
   */
  remembered(clientId: string): ClientRecord | undefined;
  count(): Promise<number>;
  /** Seed order, for the dashboard. */
  list(): Promise<ClientRecord[]>;
}
