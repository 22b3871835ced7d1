// REST connections. Secret values are stored here and nowhere else; shapes that leave the service are
// built by src/services/connectivity, which replaces every value by its name.

export interface DomainRecord {
  host: string;
  port?: number;
  scheme?: 'HTTP' | 'HTTPS';
  /** The domain's auth as received, secret values included. Shape owned by the connectivity service. */
  auth?: unknown;
}

export interface ConnectionRecord {
  rid: string;
  displayName: string;
  parentFolderRid: string;
  worker: unknown;
  domains: DomainRecord[];
  /** Additional secrets, name to value. */
  additionalSecrets: Record<string, string>;
}

export interface ConnectionRepo {
  /** False when the rid is taken. */
  insert(connection: ConnectionRecord): Promise<boolean>;
  byRid(rid: string): Promise<ConnectionRecord | undefined>;
  /** Merges secrets into the connection's additional secrets; false when there is no such connection. */
  mergeSecrets(rid: string, secrets: Record<string, string>): Promise<boolean>;
  count(): Promise<number>;
}
