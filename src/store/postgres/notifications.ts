// Cross-instance hints over LISTEN/NOTIFY on one dedicated connection. A hint carries the sender's id so an
// instance ignores its own (it has already woken its local waiters). When the connection breaks it is opened
// again with a bounded back-off, and listeners get `resync`: whatever was published meanwhile is lost, so
// every waiter looks at the table again. The table is the truth; these are only hints.
import pg from 'pg';
import { randomUUID } from 'node:crypto';
import type { StoreNotifications } from '../notifications.js';
import { clientConfig, type Db, type DbOptions } from './db.js';

const CHANNEL = 'platform_emulator';
const MAX_BACKOFF_MS = 2000;

export class PgNotifications implements StoreNotifications {
  private readonly instance = randomUUID();
  private readonly listeners = new Set<(topic: string) => void>();
  private client: pg.Client | undefined;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;
  private backoffMs = 50;
  private readonly channel: string;

  constructor(
    private readonly db: Db,
    private readonly options: DbOptions,
  ) {
    // One channel per schema: tests sharing a database in separate schemas do not hear each other.
    this.channel = `${CHANNEL}_${db.schema}`;
  }

  /** Opens the listening connection; rejects when the database cannot be reached (start-up reports it). */
  async start(): Promise<void> {
    await this.connect();
  }

  publish(topic: string): void {
    if (this.closed) return;
    this.db.query('SELECT pg_notify($1, $2)', [this.channel, `${this.instance} ${topic}`]).catch(() => undefined);
  }

  subscribe(listener: (topic: string) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const { schema: _schema, ...config } = clientConfig(this.options);
    // LISTEN holds no statement open: no statement or idle timeouts on this connection.
    const client = new pg.Client({ ...config, statement_timeout: undefined, query_timeout: undefined, idle_in_transaction_session_timeout: undefined });
    client.on('notification', (message) => {
      if (message.channel !== this.channel || !message.payload) return;
      const space = message.payload.indexOf(' ');
      if (message.payload.slice(0, space) === this.instance) return;
      this.emit(message.payload.slice(space + 1));
    });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
    } catch (err) {
      client.end().catch(() => undefined);
      throw err;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.backoffMs = 50;
  }

  private lost(client: pg.Client): void {
    if (this.client !== client || this.closed) return;
    this.client = undefined;
    client.end().catch(() => undefined);
    this.reconnectLater();
  }

  private reconnectLater(): void {
    if (this.closed) return;
    this.retry = setTimeout(() => {
      this.connect().then(
        () => this.emit('resync'),
        () => {
          this.backoffMs = Math.min(this.backoffMs * 2, MAX_BACKOFF_MS);
          this.reconnectLater();
        },
      );
    }, this.backoffMs);
    this.retry.unref();
  }

  private emit(topic: string): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(topic);
      } catch {
        // a listener's failure is its own; the others still hear
      }
    }
  }
}
