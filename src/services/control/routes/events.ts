// GET /_emulate/platform/events: a server-sent event stream (docs/contracts.md §7) of journal entries as they are
// recorded (`event: journal`) and of `change` events naming what may have changed (`{"topics":["users"]}`),
// so that the dashboard refreshes within 100 ms of a change without polling.
//
// "Something changed" is read off the journal: a state-changing method (anything but GET, HEAD and OPTIONS)
// on a path names its topics. Two changes are not journaled as writes and are fed here directly: a module's
// job poll (a GET that hands out a job) and a reset made in-process (`emulator.reset()`). Changes are
// coalesced: at most one change event per COALESCE_MS. Bounded: at most MAX_STREAMS streams, and a stream
// whose reader stops reading is closed once MAX_BUFFERED_BYTES wait for it. A comment line every HEARTBEAT_MS
// keeps proxies and the browser's EventSource from timing out. Nothing is subscribed while no stream is open.
import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { conflict } from '../../../errors.js';
import { CONTROL_ROUTE } from '../../../http/route-config.js';
import type { JournalEntry } from '../../../http/journal/index.js';
import type { PathPolicies } from '../../../http/path-policy.js';

export const EVENTS_PATH = '/_emulate/platform/events';
const MAX_STREAMS = 32;
const MAX_BUFFERED_BYTES = 1024 * 1024;
const HEARTBEAT_MS = 15_000;
const COALESCE_MS = 20;
/** How many journal entries a reconnecting stream may replay (from Last-Event-ID). */
const MAX_REPLAY = 1000;

/** A change topic: a kind of state the dashboard shows (`users`, `runtimes`), or `all`. Services name theirs in their path policy. */
export type Topic = string;

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * What a journaled request may have changed, by the services' path policy; none for a read. Writes no
 * policy names (reset, import) change all.
 */
export function topicsOf(policies: PathPolicies, entry: Pick<JournalEntry, 'method' | 'path'>): readonly Topic[] {
  if (READS.has(entry.method)) return [];
  return policies.topics(entry.path) ?? ['all'];
}

const frame = (event: string, data: unknown, id?: number) => `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

export function eventRoutes(app: FastifyInstance): void {
  const openStreams = new Set<ServerResponse>();
  let unsubscribe: (() => void) | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let pending: Set<Topic> | undefined;
  let lastSent = 0;

  const send = (chunk: string) => {
    for (const res of openStreams) {
      // A reader that stopped reading is let go rather than buffered for without end.
      if (res.writableLength > MAX_BUFFERED_BYTES) {
        res.destroy();
        continue;
      }
      res.write(chunk);
    }
  };

  const changed = (topics: readonly Topic[]) => {
    if (openStreams.size === 0 || topics.length === 0) return;
    if (pending) {
      for (const t of topics) pending.add(t);
      return;
    }
    pending = new Set(topics);
    // Leading edge: the first change after a quiet spell leaves at once (after this turn's other entries);
    // within COALESCE_MS of the last one, changes wait for the window's end and leave together.
    const flush = () => {
      const all = pending!;
      pending = undefined;
      lastSent = Date.now();
      send(frame('change', { topics: all.has('all') ? ['all'] : [...all] }));
    };
    const wait = lastSent + COALESCE_MS - Date.now();
    if (wait <= 0) setImmediate(flush);
    else setTimeout(flush, wait).unref();
  };

  const onEntry = (entry: JournalEntry) => {
    send(frame('journal', entry, entry.id));
    changed(topicsOf(app.pathPolicies, entry));
  };

  const open = (res: ServerResponse) => {
    openStreams.add(res);
    if (openStreams.size === 1) {
      unsubscribe = app.journal.subscribe(onEntry);
      heartbeat = setInterval(() => send(': ping\n\n'), HEARTBEAT_MS).unref();
    }
  };

  const close = (res: ServerResponse) => {
    if (!openStreams.delete(res) || openStreams.size > 0) return;
    unsubscribe?.();
    unsubscribe = undefined;
    clearInterval(heartbeat);
  };

  // A read that changes state (a job poll hands out a job, and is not journaled as a write) says so in its config.
  app.addHook('onRoute', (route) => {
    const topics = route.config?.changes;
    if (!topics) return;
    const own = route.onResponse === undefined ? [] : Array.isArray(route.onResponse) ? route.onResponse : [route.onResponse];
    const hook = (_request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      if (reply.statusCode === 200) changed(topics);
      done();
    };
    route.onResponse = [...own, hook];
  });
  app.onReset(() => changed(['all']));
  // Open openStreams would hold the server open: end them when it closes.
  app.addHook('preClose', async () => {
    for (const res of openStreams) res.end();
  });

  app.get(EVENTS_PATH, { config: CONTROL_ROUTE }, (request, reply) => {
    if (openStreams.size >= MAX_STREAMS) throw conflict('TooManyEventStreams', { limit: MAX_STREAMS });
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    res.socket?.setNoDelay(true);
    res.write('retry: 1000\n: connected\n\n');
    // A reconnecting EventSource says where it stopped: send what it missed that the journal still has.
    const last = Number(request.headers['last-event-id']);
    if (Number.isSafeInteger(last) && last > 0) {
      const missed = app.journal.list({ limit: MAX_REPLAY }).filter((e) => e.id > last);
      for (let i = missed.length - 1; i >= 0; i--) res.write(frame('journal', missed[i], missed[i]!.id));
      if (missed.length > 0) res.write(frame('change', { topics: ['all'] }));
    }
    open(res);
    res.on('close', () => close(res));
  });
}
