// The subscription hub (docs/live-ontology.md): per ontology, the watched sets and one ordered pump. A change
// (from this process's writers, a reset, or another instance's hint) marks the ontology dirty; the pump reads
// every touched set again, one run at a time, and queues what moved to each subscriber, so subscribers see
// changes in commit order. Changes that land while a run is under way are taken by the next run together.
// Nothing here waits on a subscriber: queues are per connection (connection.ts).
import { randomUUID } from 'node:crypto';
import type { Store, OntologyRecord } from '../../../store/store.js';
import { CHANGE_TOPIC, onOntologyChange, type Changed } from './change-feed.js';
import { baseTypeOf, checkProperties, RunReads, SetWatch, type MemberChange } from './watch.js';
import { errorOf, wireError, type SubscribeRequest, type SubscribeResponse } from './messages.js';
import type { SubscriberConnection, Subscription, SubscriptionHost } from './connection.js';
import { keyedRun } from './keyed-run.js';
import { Holders } from './holders.js';
import { deliverUpdates, type RunTimes, type WireCache } from './updates.js';
import { DEFAULT_PACING, RunPacer, type PacingOptions } from './pacing.js';

interface Watched {
  watch: SetWatch;
  subscribers: Set<Subscription>;
}

class OntologyPump {
  readonly watches = new Map<string, Watched>();
  /** The keyed sets' members by object (keyed-run.ts). */
  readonly holders = new Holders<SetWatch>();
  private chain: Promise<unknown> = Promise.resolve();
  private pending: Map<string, Set<string> | 'all'> | 'all' | undefined;
  /** When the first change the next run takes was marked (epoch ms; the bench's stamps, updates.ts). */
  private pendingSince = 0;
  /** When runs start: under a stream of changes, spaced by the last run's length (pacing.ts). */
  readonly pacer: RunPacer;

  constructor(
    private readonly hub: SubscriptionHub,
    readonly ontologyRid: string,
  ) {
    this.pacer = new RunPacer(hub.pacing, () => {
      // A failed run (the store unreachable) loses nothing a later one needs: it reads the sets as they are then.
      void this.then(() => this.run())
        .catch(() => undefined)
        .finally(() => this.pacer.ended());
    });
  }

  /** Runs `task` after every task before it (subscribes and change runs share one order). */
  then<T>(task: () => Promise<T>): Promise<T> {
    const run = this.chain.then(task);
    this.chain = run.catch(() => undefined);
    return run;
  }

  changed(changed: Changed): void {
    if (this.watches.size === 0) return;
    if (this.pending === undefined) this.pendingSince = performance.timeOrigin + performance.now();
    if (changed === undefined || this.pending === 'all') this.pending = 'all';
    else {
      const pending: Map<string, Set<string> | 'all'> = this.pending ?? new Map();
      this.pending = pending;
      for (const [type, keys] of changed) {
        const had = pending.get(type);
        if (keys === 'all' || had === 'all') pending.set(type, 'all');
        // The pump's own set, added to in place: a copy per change made a long spell of edits quadratic.
        else if (had === undefined) pending.set(type, new Set(keys));
        else for (const key of keys) had.add(key);
      }
    }
    // A change after a quiet spell runs at once; under a stream of changes one run (and one message per
    // subscriber) carries every change of its spell (docs/live-ontology.md).
    this.pacer.request();
  }

  stop(): void {
    this.pacer.stop();
  }

  private async run(): Promise<void> {
    const pending = this.pending;
    this.pending = undefined;
    if (pending === undefined) return;
    await this.deliverChanges(pending, { changedAt: this.pendingSince, startedAt: performance.timeOrigin + performance.now() });
  }

  private async deliverChanges(pending: Map<string, Set<string> | 'all'> | 'all', times: RunTimes): Promise<void> {
    const changed: Changed = pending === 'all' ? undefined : pending;
    const ontology = await this.hub.store.ontologies.byRid(this.ontologyRid);
    const reads = ontology ? new RunReads(this.hub.store, ontology.rid) : undefined;
    const wires: WireCache = new Map();
    const watches = [...this.watches.values()];
    // The sets made of filters over the changed type: only those an object may move are visited.
    const keyed =
      ontology && reads
        ? await keyedRun(
            watches.map((w) => w.watch),
            ontology,
            changed,
            reads,
            this.holders,
          )
        : undefined;
    for (const watched of watches) {
      if (!watched.watch.touchedBy(changed)) continue;
      const mine = keyed && watched.watch.keyedOn(keyed.objectType) ? (keyed.targets.get(watched.watch) ?? []) : undefined;
      if (mine?.length === 0) continue;
      let changes: MemberChange[];
      try {
        if (!ontology) changes = [];
        else if (mine) changes = watched.watch.applyChanged(ontology, mine);
        else changes = await watched.watch.refresh(this.hub.store, ontology, changed, reads);
      } catch (err) {
        // The set no longer evaluates (the ontology changed under it): its subscribers are told, and it ends.
        this.hub.closeWatch(this, watched, err);
        continue;
      }
      // No yield to the loop between sets: on a crowded machine each yield let the process be switched out for
      // a whole round of the other runnable tasks (a run of 100 sets took seconds; docs/live-ontology.md).
      if (changes.length && ontology) this.hub.deliver(ontology, watched, changes, wires, times);
    }
  }
}

export class SubscriptionHub implements SubscriptionHost {
  private readonly pumps = new Map<string, OntologyPump>();
  readonly connections = new Set<SubscriberConnection>();
  private readonly stops: Array<() => void> = [];
  /** Subscribed changes delivered since start, and their latency from the change to the queue (for the bench). */
  delivered = 0;

  constructor(
    readonly store: Store,
    /** How one ontology's runs are spaced while changes keep coming (pacing.ts). */
    readonly pacing: PacingOptions = DEFAULT_PACING,
  ) {
    this.stops.push(onOntologyChange(store, (rid, changed) => this.pumps.get(rid)?.changed(changed)));
    // Another instance changed objects (a hint: the table is the truth), reset the store, or the hint channel
    // came back after a break (anything may have been missed): every touched set is read again.
    this.stops.push(
      store.notifications.subscribe((topic) => {
        if (topic.startsWith(CHANGE_TOPIC)) this.pumps.get(topic.slice(CHANGE_TOPIC.length))?.changed(undefined);
        else if (topic === 'reset' || topic === 'resync') this.changedAll();
      }),
    );
  }

  /** Everything may have changed (a reset): every set of every ontology is read again. */
  changedAll(): void {
    for (const pump of this.pumps.values()) pump.changed(undefined);
  }

  attach(connection: SubscriberConnection): void {
    this.connections.add(connection);
  }

  /** A connection's new list of subscriptions, answered in order with the changes (docs/live-ontology.md). */
  replace(connection: SubscriberConnection, messageId: string, requests: SubscribeRequest[]): Promise<void> {
    const pump = this.pumpOf(connection.ontologyRid);
    return pump.then(async () => {
      if (connection.isClosed) return;
      const ontology = await this.store.ontologies.byRid(connection.ontologyRid);
      const kept = new Map<string, Subscription>();
      const responses: SubscribeResponse[] = [];
      const byCanonical = new Map([...connection.subscriptions.values()].map((s) => [s.canonical, s]));
      for (const [i, request] of requests.entries()) {
        if (i >= connection.limitsInUse.maxRequests) {
          responses.push({ type: 'error', errors: [errorOf('TooManySubscriptions', { limit: String(connection.limitsInUse.maxRequests) })] });
          continue;
        }
        const canonical = JSON.stringify([request.objectSet, [...request.propertySet].sort(), request.loadRids]);
        const existing = kept.get(canonical) ?? byCanonical.get(canonical);
        if (existing) {
          kept.set(canonical, existing);
          responses.push({ type: 'success', id: existing.id });
          continue;
        }
        try {
          if (!ontology) throw new Error('ontology gone');
          if (request.referenceSet.length)
            throw Object.assign(errorOf('ReferencePropertiesNotSupported', { properties: request.referenceSet.join(',') }), { wire: true });
          const watched = await this.watchFor(pump, ontology, request.objectSet);
          checkProperties(ontology, watched.watch, request.propertySet);
          const sub: Subscription = { id: randomUUID(), connection, watch: watched.watch, request, canonical };
          watched.subscribers.add(sub);
          kept.set(canonical, sub);
          responses.push({ type: 'success', id: sub.id });
        } catch (err) {
          const error = (err as { wire?: boolean }).wire ? (err as ReturnType<typeof errorOf>) : wireError(err);
          responses.push({ type: 'error', errors: [{ error: error.error, args: error.args }] });
        }
      }
      // Subscriptions not asked for again end; a watch nobody subscribes to any more is let go.
      for (const sub of connection.subscriptions.values()) if (![...kept.values()].includes(sub)) this.unwatch(pump, sub);
      connection.subscriptions = new Map([...kept.values()].map((s) => [s.id, s]));
      this.sweep(pump);
      connection.enqueue(JSON.stringify({ type: 'subscribeResponses', id: messageId, responses }));
    });
  }

  detach(connection: SubscriberConnection): void {
    this.connections.delete(connection);
    const pump = this.pumps.get(connection.ontologyRid);
    if (!pump) return;
    for (const sub of connection.subscriptions.values()) this.unwatch(pump, sub);
    connection.subscriptions = new Map();
    this.sweep(pump);
  }

  /** Queues what moved in one set to each of its subscribers (updates.ts: bytes shared per shape asked for). */
  deliver(ontology: OntologyRecord, watched: Watched, changes: MemberChange[], wires: WireCache = new Map(), times?: RunTimes): void {
    this.delivered += deliverUpdates(ontology, watched.subscribers, changes, wires, times);
  }

  /** Ends every subscription of a set that can no longer be read (`subscriptionClosed` with the error). */
  closeWatch(pump: OntologyPump, watched: Watched, err: unknown): void {
    pump.watches.delete(watched.watch.key);
    watched.watch.release();
    for (const sub of watched.subscribers) {
      sub.connection.subscriptions.delete(sub.id);
      sub.connection.enqueue(JSON.stringify({ type: 'subscriptionClosed', id: sub.id, cause: { type: 'error', ...wireError(err) } }));
    }
  }

  /** What the dashboard shows: one row per subscription. */
  rows(): Array<Record<string, unknown>> {
    return [...this.connections].flatMap((c) =>
      [...c.subscriptions.values()].map((s) => ({
        subscription: s.id,
        connection: c.id,
        transport: c.transport,
        user: c.username,
        ontology: c.ontologyRid,
        objectSet: JSON.stringify(s.request.objectSet),
        members: s.watch.size,
        messagesSent: c.messagesSent,
        refreshes: c.refreshesSent,
        queued: c.queued,
      })),
    );
  }

  close(): void {
    for (const stop of this.stops) stop();
    for (const pump of this.pumps.values()) pump.stop();
    for (const c of [...this.connections]) c.close(1001, 'server closing');
  }

  private pumpOf(rid: string): OntologyPump {
    let pump = this.pumps.get(rid);
    if (!pump) this.pumps.set(rid, (pump = new OntologyPump(this, rid)));
    return pump;
  }

  private async watchFor(pump: OntologyPump, ontology: OntologyRecord, objectSet: unknown): Promise<Watched> {
    const key = JSON.stringify(objectSet);
    const found = pump.watches.get(key);
    if (found) return found;
    const watch = new SetWatch(key, objectSet, baseTypeOf(objectSet), pump.holders);
    await watch.start(this.store, ontology);
    const watched: Watched = { watch, subscribers: new Set() };
    pump.watches.set(key, watched);
    return watched;
  }

  private unwatch(pump: OntologyPump, sub: Subscription): void {
    pump.watches.get(sub.watch.key)?.subscribers.delete(sub);
  }

  private sweep(pump: OntologyPump): void {
    for (const [key, watched] of pump.watches) {
      if (watched.subscribers.size > 0) continue;
      pump.watches.delete(key);
      watched.watch.release();
    }
  }
}
