// For the live object set tests: a listener that records what the typed client's subscribe delivers, and waits
// for a matching update with a deadline (never a sleep loop).
import type { Client } from '@osdk/client';
import { Employee } from '../clients/osdk-typed-definitions.js';

export interface Seen {
  state: string;
  pk: unknown;
  title?: unknown;
  at: number;
}

export interface Recorder {
  seen: Seen[];
  errors: unknown[];
  outOfDate: number;
  ready: Promise<void>;
  /** Resolves on the first successful subscription, even one after an error (a reconnect). */
  subscribed: Promise<void>;
  /** The first update after `from` (an index into seen) that matches, or a rejection after `ms`. */
  next(match: (s: Seen) => boolean, from?: number, ms?: number): Promise<Seen>;
  unsubscribe(): Promise<void>;
}

type Subscribable = { subscribe: (listener: Record<string, unknown>, opts?: Record<string, unknown>) => { unsubscribe: () => Promise<void> } };

export function record(set: unknown, opts?: Record<string, unknown>): Recorder {
  const seen: Seen[] = [];
  const errors: unknown[] = [];
  const waiters = new Set<() => void>();
  let markReady!: () => void;
  let failReady!: (e: unknown) => void;
  const ready = new Promise<void>((resolve, reject) => ((markReady = resolve), (failReady = reject)));
  ready.catch(() => undefined);
  let markSubscribed!: () => void;
  const subscribed = new Promise<void>((resolve) => (markSubscribed = resolve));
  const rec: Recorder = {
    seen,
    errors,
    outOfDate: 0,
    ready,
    subscribed,
    next(match, from = 0, ms = 3000) {
      return new Promise((resolve, reject) => {
        const look = () => {
          const found = seen.slice(from).find(match);
          if (found) {
            waiters.delete(look);
            clearTimeout(timer);
            resolve(found);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(look);
          reject(new Error(`no matching update within ${ms} ms; seen ${JSON.stringify(seen.slice(from))}`));
        }, ms);
        waiters.add(look);
        look();
      });
    },
    unsubscribe: async () => undefined,
  };
  const sub = (set as Subscribable).subscribe(
    {
      onChange: (u: { object: Record<string, unknown>; state: string }) => {
        seen.push({ state: u.state, pk: u.object.$primaryKey, title: u.object.title, at: performance.now() });
        for (const w of [...waiters]) w();
      },
      onSuccessfulSubscription: () => {
        markReady();
        markSubscribed();
      },
      onError: (e: unknown) => {
        errors.push(e);
        failReady(e);
      },
      onOutOfDate: () => void rec.outOfDate++,
    },
    opts,
  );
  rec.unsubscribe = () => sub.unsubscribe();
  return rec;
}

export const employees = (c: Client) => c(Employee);
