// The journal hook: the one place that records a request (docs/contracts.md §7) and logs a refusal with its reason
// (DESIGN principle 11). Services never write entries; they throw errors that carry their `reason`, the
// renderers leave the error on the request, and this hook reads it from there after the answer is sent (or when
// the client leaves before that: client-left.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../clock.js';
import type { EmulatorError } from '../../errors.js';
import type { ErrorLineWriter } from '../error-log.js';
import type { JournalEntry, JournalFilter } from './entry.js';
import { JournalRing, type JournalRecord } from './ring.js';
import { redactUrl } from '../../redact.js';
import { errorCodeOf, reasonOf } from './reason.js';
import { levelOf, refusalLine, wordsOf } from './refusal-line.js';
import { sentMethod } from '../../head-requests.js';
import { basicClientId, basicOf, clientIdOf, usernameOf } from './who.js';
import { CLIENT_CLOSED_REQUEST, leftNote, leftStatus, watchClientLeaving } from './client-left.js';

export type JournalListener = (entry: JournalEntry) => void;

export interface Journal {
  /** Newest first. */
  list(filter?: JournalFilter): JournalEntry[];
  /** Calls `listener` with every new entry; returns the unsubscribe function. */
  subscribe(listener: JournalListener): () => void;
  clear(): void;
  /** How many entries it keeps at most; 0 when the journal is off. */
  readonly capacity: number;
  /**
   * Journals the requests of another listener of the same service into this journal (the in-pod runtime
   * listener's, src/services/compute-modules/pod-listener/), as the public app's are.
   */
  attach(listener: FastifyInstance): void;
  /**
   * Journals a request answered in front of the framework (src/http/fast-lane.ts) as its route would have, and
   * logs its refusal, if it was one, on the line the route's refusal would have had.
   */
  recordAnswered(answered: AnsweredRequest): void;
}

/** What a journal entry of a plain success needs, without the framework's request. */
export interface AnsweredRequest {
  method: string;
  url: string;
  status: number;
  durationMs: number;
  clientId: string | undefined;
  /** An OAuth request's Basic header, read for its client id on demand (its secret part never is). */
  basic: string | undefined;
  username: string | undefined;
  /** What a refused request was answered with. */
  refusal?: EmulatorError;
  /** The client had closed the connection before the lane wrote its answer (client-left.ts): nothing reached it. */
  clientLeft?: boolean;
}

/** The request id a lane's refusal is logged with: the framework, which numbers requests, never saw it. */
const LANE_REQUEST_ID = 'fast-lane';

declare module 'fastify' {
  interface FastifyInstance {
    journal: Journal;
  }
  interface FastifyRequest {
    /** The refusal this request was answered with, left here by its renderer (src/http/render-error.ts). */
    refusal: EmulatorError | null;
    /** A platform error's errorInstanceId, logged on the refusal's line. */
    errorInstanceId: string | null;
    /** A note on an answer that is not a refusal but will not do what the caller hopes (e.g. a job no function answers). */
    journalNote: string | null;
    /** The user an answer acts for when no bearer token named one (a token request's minted token). */
    journalUsername: string | null;
    /** Set by the first of onResponse and the client leaving (client-left.ts), so that a request is journaled once. */
    journalRecorded: boolean;
  }
}

interface JournalDeps {
  clock: Clock;
  /** 0 turns the journal off; refusals are still logged. */
  size: number;
  logLine: ErrorLineWriter;
}

/**
 * Control and dashboard reads, and CORS preflights, are not journaled: reading the journal must not fill it.
 * A control read that changes state (its route config names `changes`: a module's poll) is journaled when it
 * does, i.e. not when it answers 204; an idle poll every couple of seconds per module would push everything
 * else out of the ring.
 */
function journaled(request: FastifyRequest, status: number): boolean {
  const { url } = request;
  const method = sentMethod(request.raw);
  if (method === 'OPTIONS') return false;
  if ((method !== 'GET' && method !== 'HEAD') || !url.startsWith('/_emulate/')) return true;
  return status !== 204 && request.routeOptions.config?.changes !== undefined;
}

/** A raw record as readers see it: ISO time, redacted paths, the Basic header's client id. */
function materialize(r: JournalRecord): JournalEntry {
  return {
    id: r.id,
    time: new Date(r.timeMs).toISOString(),
    method: r.method,
    path: redactUrl(r.url),
    originalPath: r.originalUrl === undefined ? undefined : redactUrl(r.originalUrl),
    status: r.status,
    durationMs: r.durationMs,
    clientId: r.clientId ?? (r.basic === undefined ? undefined : basicClientId(r.basic)),
    username: r.username,
    errorCode: r.errorCode,
    reason: r.reason,
    clientLeft: r.clientLeft,
  };
}

const elapsedOf = (reply: FastifyReply) => Math.round(reply.elapsedTime * 1000) / 1000;

/** The reason with what the route says the refusal is about (FastifyContextConfig.refusalSubject), if anything. */
function withSubject(reason: string, request: FastifyRequest): string {
  const subject = request.routeOptions.config.refusalSubject?.(request, reason);
  return subject ? `${reason} (${subject})` : reason;
}

export function installJournal(app: FastifyInstance, deps: JournalDeps): Journal {
  const ring = new JournalRing(deps.size, materialize);
  const listeners = new Set<JournalListener>();
  let lastId = 0;

  const journal: Journal = {
    list: (filter) => ring.list(filter),
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    clear: () => ring.clear(),
    capacity: deps.size,
    attach: (listener) => hook(listener),
    recordAnswered(answered) {
      // A lane's answer written after its client left reached no one: no refusal line, as for a routed request.
      const left = answered.clientLeft === true;
      const refusal = left ? undefined : answered.refusal;
      let errorCode: string | undefined;
      let reason: string | undefined;
      if (refusal !== undefined) {
        const words = wordsOf(refusal);
        errorCode = words.errorCode;
        reason = words.reason;
        const { status, method, url } = answered;
        const line = () => refusalLine(LANE_REQUEST_ID, refusal, undefined, status, method, url, words.errorCode, words.reason);
        // A shared refusal on a lane's path: its line repeats but for the time (src/http/error-log.ts).
        if (Object.isFrozen(refusal)) deps.logLine.repeated(levelOf(status), refusal, url, status, method, line);
        else deps.logLine(levelOf(status), line());
      }
      if (deps.size === 0) return;
      // Field by field, in the order record() writes them: one shape for every slot of the ring.
      const record: JournalRecord = {
        id: ++lastId,
        timeMs: deps.clock.now(),
        method: answered.method,
        url: answered.url,
        originalUrl: undefined,
        status: left ? CLIENT_CLOSED_REQUEST : answered.status,
        durationMs: answered.durationMs,
        clientId: answered.clientId,
        basic: answered.basic,
        username: answered.username,
        errorCode,
        reason: left ? leftNote(false) : reason,
        clientLeft: left || undefined,
      };
      push(record, listenerFailed);
    },
  };
  app.decorate('journal', journal);
  app.onReset(() => ring.clear());
  const listenerFailed = (err: unknown) => app.log.warn({ err }, 'a journal listener failed');

  function record(request: FastifyRequest, reply: FastifyReply): void {
    if (request.journalRecorded) return;
    request.journalRecorded = true;
    const { url } = request;
    const method = sentMethod(request.raw);
    const status = reply.statusCode;
    const keep = deps.size > 0 && journaled(request, status);
    const refused = status >= 400;
    if (!keep && !refused) return;

    const refusal = request.refusal;
    let errorCode: string | undefined;
    let reason: string | undefined;
    if (refused) {
      if (refusal) {
        errorCode = errorCodeOf(refusal);
        reason = withSubject(reasonOf(refusal), request);
        deps.logLine(levelOf(status), refusalLine(request.id, refusal, request.errorInstanceId ?? undefined, status, method, url, errorCode, reason));
      } else {
        // Only an unexpected exception answers without a refusal; its renderer has logged it at error.
        reason = 'An unexpected error; the log has its errorInstanceId and stack.';
      }
    }
    if (!keep) return;

    pushRequest(request, reply, { method, status, errorCode, reason: reason ?? request.journalNote ?? undefined, clientLeft: undefined });
  }

  /**
   * A request whose client left before its answer was complete (client-left.ts), with what was known then; what
   * its handler does afterwards reaches no one and is not journaled. No refusal line: no refusal was answered in full.
   */
  function recordLeft(request: FastifyRequest, reply: FastifyReply): void {
    if (request.journalRecorded) return;
    request.journalRecorded = true;
    const begun = reply.raw.headersSent;
    const status = leftStatus(reply);
    // A poll left while it waited changed nothing, like an idle poll's 204: the same rule leaves both out.
    if (!journaled(request, begun ? status : 204)) return;
    const refusal = begun ? request.refusal : null;
    const more = refusal ? withSubject(reasonOf(refusal), request) : request.journalNote;
    pushRequest(request, reply, {
      method: sentMethod(request.raw),
      status,
      errorCode: refusal ? errorCodeOf(refusal) : undefined,
      reason: more ? `${leftNote(begun)} ${more}` : leftNote(begun),
      clientLeft: true,
    });
  }

  /** Journals a request the framework saw: what an answered and a left one share is read here, the rest given. */
  function pushRequest(
    request: FastifyRequest,
    reply: FastifyReply,
    words: Pick<JournalRecord, 'method' | 'status' | 'errorCode' | 'reason' | 'clientLeft'>,
  ): void {
    const { url } = request;
    // Its fields in the order the lanes' records have them: one object shape in the ring.
    const record: JournalRecord = {
      id: ++lastId,
      timeMs: deps.clock.now(),
      method: words.method,
      url,
      originalUrl: request.originalUrl !== url ? request.originalUrl : undefined,
      status: words.status,
      durationMs: elapsedOf(reply),
      clientId: clientIdOf(request),
      basic: basicOf(request),
      username: usernameOf(request),
      errorCode: words.errorCode,
      reason: words.reason,
      clientLeft: words.clientLeft,
    };
    push(record, (err) => request.log.warn({ err }, 'a journal listener failed'));
  }

  function push(record: JournalRecord, listenerFailed: (err: unknown) => void): void {
    ring.push(record);
    if (listeners.size === 0) return;
    const entry = materialize(record);
    for (const listener of listeners) {
      try {
        listener(entry);
      } catch (err) {
        listenerFailed(err);
      }
    }
  }

  function hook(listener: FastifyInstance): void {
    listener.decorateRequest('refusal', null);
    listener.decorateRequest('errorInstanceId', null);
    listener.decorateRequest('journalNote', null);
    listener.decorateRequest('journalUsername', null);
    listener.decorateRequest('journalRecorded', false);
    // Not async: an app-wide async hook costs every request a promise and a microtask turn.
    listener.addHook('onResponse', (request, reply, done) => {
      record(request, reply);
      done();
    });
    // A request left early writes no log line, so with the journal off there is nothing to watch for. This hook
    // comes before the faults' (installFaults runs after installJournal), so a delayed request is watched too.
    if (deps.size > 0)
      listener.addHook('onRequest', (request, reply, done) => {
        watchClientLeaving(request, reply, recordLeft);
        done();
      });
  }
  hook(app);
  return journal;
}
