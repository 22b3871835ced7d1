// REST connections. Secret values are stored here and nowhere else; shapes that leave the service are
// built by src/services/connectivity, which replaces every value by its name.

/** Where an API key goes in the outgoing request (the SDK's RestRequestApiKeyLocation). */
export type ApiKeyLocationRecord = { type: 'header'; headerName: string } | { type: 'queryParameter'; queryParameterName: string };

/**
 * A domain's auth. Each secret field holds the NAME of a secret in `ConnectionRecord.secrets`, never a value,
 * so that a record can be shown, copied or logged by mistake without leaking anything.
 */
export type DomainAuthRecord =
  | { type: 'bearerToken'; bearerToken: string }
  | { type: 'apiKey'; location: ApiKeyLocationRecord; apiKey: string }
  | { type: 'basic'; username: string; password: string }
  | { type: 'oauth2' };

export interface DomainRecord {
  host: string;
  port?: number;
  scheme?: 'HTTP' | 'HTTPS';
  auth?: DomainAuthRecord;
}

export interface WorkerRecord {
  type: 'foundryWorker';
  networkEgressPolicyRids: string[];
}

export interface ConnectionRecord {
  rid: string;
  displayName: string;
  parentFolderRid: string;
  worker: WorkerRecord;
  domains: DomainRecord[];
  oauth2ClientRid?: string;
  /**
   * Every secret value, by name: the domains' auth secrets (named by their auth fields) and the additional
   * secrets (every other name).
   */
  secrets: Record<string, string>;
}

export interface ConnectionRepo {
  /** False when the rid is taken. */
  insert(connection: ConnectionRecord): Promise<boolean>;
  /** Creates or replaces the connection of this rid (control routes); true when created. */
  upsert(connection: ConnectionRecord): Promise<boolean>;
  byRid(rid: string): Promise<ConnectionRecord | undefined>;
  /** Sets the named secrets (replacing, or adding new names), keeps the others; false when there is no such connection. */
  mergeSecrets(rid: string, secrets: Record<string, string>): Promise<boolean>;
  count(): Promise<number>;
  /** Insertion order, for the dashboard (records carry secret values: callers show names only). */
  list(): Promise<ConnectionRecord[]>;
}
