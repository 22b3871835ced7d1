// One-shot faults (docs/contracts.md §7): a test suite arms a status, a body and/or a delay for a method and a path
// pattern, for the next N matching requests, to see how its client copes with a failing platform. One onRequest
// hook applies them; with nothing armed it costs a length check. Control routes are never faulted, so that a
// fault cannot lock a suite out of the routes that clear it.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { InjectedFault, platformStatus } from '../errors.js';
import { randomUuid } from '../ids.js';
import { errorFamily } from './route-config.js';
import type { PathPolicies } from './path-policy.js';
import { sentMethod } from '../head-requests.js';

export interface FaultSpec {
  /** An HTTP method, or `*` for any. */
  method: string;
  /** The path without query: exact, or with `*` (one segment's characters) and `**` (anything). */
  path: string;
  /** Answer with this status instead of serving the request. */
  status?: number;
  /** The answer's body: a string is sent as text, anything else as JSON. Default: the route family's error envelope. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Wait this long before answering (or before serving, without `status`). */
  delayMs?: number;
  /** How many matching requests it applies to. */
  times: number;
}

export interface ArmedFault extends FaultSpec {
  id: number;
  remaining: number;
}

export interface Faults {
  arm(spec: FaultSpec): ArmedFault;
  list(): ArmedFault[];
  /** Clears one (by id) or all; returns how many were cleared. */
  clear(id?: number): number;
  /** Whether any fault waits for a request (a fast lane then leaves the request to its route). */
  anyArmed(): boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    faults: Faults;
  }
}

function compile(pattern: string): RegExp {
  const escape = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  const source = pattern
    .split('**')
    .map((part) => part.split('*').map(escape).join('[^/]*'))
    .join('.*');
  return new RegExp(`^${source}$`);
}

/** The body of a fault armed without one: the envelope the route's own errors use. */
function envelope(policies: PathPolicies, url: string, status: number, description: string): unknown {
  if (errorFamily(url, policies) !== 'platform') return { error: status >= 500 ? 'server_error' : 'invalid_request', error_description: description };
  const code = (Object.entries(platformStatus).find(([, s]) => s === status)?.[0] ?? (status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT')) as string;
  return { errorCode: code, errorName: 'InjectedFault', errorDescription: description, errorInstanceId: randomUuid(), parameters: {} };
}

export function installFaults(app: FastifyInstance): Faults {
  let armed: Array<ArmedFault & { regex: RegExp }> = [];
  let lastId = 0;
  const visible = ({ regex: _regex, ...fault }: ArmedFault & { regex: RegExp }): ArmedFault => ({ ...fault });

  const faults: Faults = {
    arm(spec) {
      const fault = { ...spec, id: ++lastId, remaining: spec.times, regex: compile(spec.path) };
      armed.push(fault);
      return visible(fault);
    },
    list: () => armed.map(visible),
    anyArmed: () => armed.length > 0,
    clear(id) {
      const before = armed.length;
      armed = id === undefined ? [] : armed.filter((f) => f.id !== id);
      return before - armed.length;
    },
  };
  app.decorate('faults', faults);
  app.onReset(() => void faults.clear());

  function take(request: FastifyRequest): ArmedFault | undefined {
    const url = request.url;
    if (url.startsWith('/_emulate/')) return undefined;
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const fault = armed.find((f) => (f.method === '*' || f.method === sentMethod(request.raw)) && f.regex.test(path));
    if (!fault) return undefined;
    if (--fault.remaining <= 0) armed = armed.filter((f) => f !== fault);
    return fault;
  }

  function answer(request: FastifyRequest, reply: FastifyReply, fault: ArmedFault): void {
    const status = fault.status!;
    const reason = `Injected fault #${fault.id} (${fault.method} ${fault.path}, armed through /_emulate/platform/faults): answered ${status}; ${fault.remaining} more to come.`;
    request.refusal = new InjectedFault(status, reason);
    reply.code(status).headers(fault.headers ?? {});
    const body = fault.body === undefined ? envelope(request.server.pathPolicies, request.url, status, `Injected fault #${fault.id}.`) : fault.body;
    if (typeof body === 'string')
      void reply.type(reply.getHeader('content-type') === undefined ? 'text/plain; charset=utf-8' : String(reply.getHeader('content-type'))).send(body);
    else void reply.type('application/json').send(JSON.stringify(body));
  }

  // Callback style and synchronous when nothing is armed: no promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    if (armed.length === 0) return done();
    const fault = take(request);
    if (!fault) return done();
    const act = () => (fault.status === undefined ? done() : answer(request, reply, fault));
    if (fault.delayMs) setTimeout(act, fault.delayMs).unref();
    else act();
  });
  return faults;
}
