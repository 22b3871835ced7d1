// How instances sharing one store hint each other (the memory store's is a no-op; PostgreSQL's uses
// LISTEN/NOTIFY, src/store/postgres/notifications.ts). Its own file so that a backend can implement it without
// importing the Store interface above it.

/**
 * Topics: `job-queued:<runtimeId>`, `job-finished:<jobId>`, `session:<runtimeId>` (a session reset),
 * `reset` (the store was reset and reseeded), and `resync` (delivered locally after the channel was lost and
 * came back: anything may have been missed, so every waiter looks again).
 */
export interface StoreNotifications {
  /** Tells the other instances; never throws (a hint that cannot be sent is dropped). */
  publish(topic: string): void;
  /** Called for every topic another instance publishes; returns the unsubscribe function. */
  subscribe(listener: (topic: string) => void): () => void;
}
