// One subscriber connection (a websocket or a server-sent-event stream; docs/live-ontology.md): its
// subscriptions, replaced by each message it sends, and its outgoing queue. The queue is bounded: a reader that
// falls behind never holds up a writer or another reader; past the bound its queued changes are dropped and
// each of its subscriptions gets `refreshObjectSet` instead (reload the set). Messages are handled one at a
// time, in order; a flood past the rate is answered with errors and changes nothing.
import { randomUUID } from 'node:crypto';
import type { SetWatch } from './watch.js';
import { errorOf, parseSubscribe, refusedMessage, type SubscribeRequest } from './messages.js';
import { sizeOf, type OutMessage } from './frames.js';

export type { OutMessage };

export interface Transport {
  /** Writes one message; `done` runs once it has been handed to the socket (or the socket is gone). */
  send(message: OutMessage, done: () => void): void;
  close(code: number, reason: string): void;
}

export interface ConnectionLimits {
  /** Messages waiting for a slow reader before they are dropped for `refreshObjectSet`. */
  maxQueued: number;
  /** Bytes handed to the socket and not yet written, past which messages wait in the queue. */
  highWaterBytes: number;
  /** Client messages per second (a burst of twice as many is let through). */
  messagesPerSecond: number;
  /** Subscriptions one message may ask for. */
  maxRequests: number;
}

export const DEFAULT_LIMITS: ConnectionLimits = { maxQueued: 1000, highWaterBytes: 1 << 20, messagesPerSecond: 50, maxRequests: 1000 };

export interface Subscription {
  id: string;
  connection: SubscriberConnection;
  watch: SetWatch;
  request: SubscribeRequest;
  /** The canonical request: the same request again keeps its id (the client re-sends its list as a heartbeat). */
  canonical: string;
  /** What the updates sent to it depend on (selected properties, rids or not): subscribers alike share bytes. */
  shape?: string;
  /** The start of its objectSetChanged messages, up to the updates, as bytes (built once, not per message). */
  head?: Buffer;
}

/** What a connection asks of the hub: its message handled within the ontology's ordered pump. */
export interface SubscriptionHost {
  replace(connection: SubscriberConnection, messageId: string, requests: SubscribeRequest[]): Promise<void>;
  detach(connection: SubscriberConnection): void;
}

export class SubscriberConnection {
  readonly id = randomUUID();
  readonly openedAt = Date.now();
  subscriptions = new Map<string, Subscription>();
  messagesSent = 0;
  refreshesSent = 0;
  lastActivity = Date.now();
  private queue: OutMessage[] = [];
  private inflightBytes = 0;
  private closed = false;
  private work: Promise<void> = Promise.resolve();
  private tokens: number;
  private refilledAt = Date.now();

  constructor(
    readonly ontologyRid: string,
    readonly username: string,
    readonly transport: string,
    private readonly out: Transport,
    private readonly host: SubscriptionHost,
    private readonly limits: ConnectionLimits = DEFAULT_LIMITS,
  ) {
    this.tokens = limits.messagesPerSecond * 2;
  }

  /** A message from the client: handled after the ones before it. */
  receive(text: string): Promise<void> {
    this.lastActivity = Date.now();
    const parsed = parseSubscribe(text);
    if ('problem' in parsed) {
      this.enqueue(refusedMessage(parsed.id, 1, errorOf('InvalidSubscribeRequest', { reason: parsed.problem })));
      return this.work;
    }
    const { message } = parsed;
    if (!this.takeToken()) {
      this.enqueue(
        refusedMessage(message.id, message.requests.length, errorOf('SubscriptionRateLimited', { messagesPerSecond: String(this.limits.messagesPerSecond) })),
      );
      return this.work;
    }
    this.work = this.work.then(() => this.host.replace(this, message.id, message.requests)).catch(() => undefined);
    return this.work;
  }

  get limitsInUse(): ConnectionLimits {
    return this.limits;
  }

  /** Queues one server message; past the bound, drops the queue for one refresh per subscription. */
  enqueue(text: OutMessage): void {
    if (this.closed) return;
    if (this.queue.length === 0 && this.inflightBytes < this.limits.highWaterBytes) return this.write(text);
    if (this.queue.length >= this.limits.maxQueued) return this.overflow();
    this.queue.push(text);
  }

  close(code = 1000, reason = 'closed'): void {
    if (this.closed) return;
    this.closed = true;
    this.queue = [];
    this.host.detach(this);
    this.out.close(code, reason);
  }

  /** The transport went away (the peer closed, or the socket broke). */
  gone(): void {
    if (this.closed) return;
    this.closed = true;
    this.queue = [];
    this.host.detach(this);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  get queued(): number {
    return this.queue.length;
  }

  private overflow(): void {
    this.queue = [];
    for (const sub of this.subscriptions.values()) {
      this.queue.push(JSON.stringify({ type: 'refreshObjectSet', id: sub.id, objectType: sub.watch.objectType }));
      this.refreshesSent++;
    }
  }

  private write(text: OutMessage): void {
    const size = sizeOf(text);
    this.inflightBytes += size;
    this.messagesSent++;
    this.out.send(text, () => {
      this.inflightBytes -= size;
      this.drain();
    });
  }

  private drain(): void {
    while (!this.closed && this.queue.length > 0 && this.inflightBytes < this.limits.highWaterBytes) this.write(this.queue.shift()!);
  }

  private takeToken(): boolean {
    const now = Date.now();
    const cap = this.limits.messagesPerSecond * 2;
    this.tokens = Math.min(cap, this.tokens + ((now - this.refilledAt) / 1000) * this.limits.messagesPerSecond);
    this.refilledAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
