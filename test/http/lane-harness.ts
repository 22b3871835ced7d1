// What both fast-lane suites start with: the real app on a port, and a request that reports whether a lane or
// the route answered it. A lane journals its answers through recordAnswered, which the route's hook never calls,
// so a count of those calls tells them apart.
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildTestApp } from '../helpers/app.js';
import type { ManualClock } from '../../src/clock.js';
import type { Store } from '../../src/store/store.js';

export interface LaneAnswer {
  status: number;
  /** Every header but those that differ between any two answers (date, keep-alive, connection). */
  headers: Record<string, string>;
  body: string;
  /** The route answered (no lane did). */
  routed: boolean;
}

export interface LaneHarness {
  app: FastifyInstance;
  clock: ManualClock;
  store: Store;
  base: string;
  send(path: string, init: RequestInit): Promise<LaneAnswer>;
}

export async function laneHarness(seed: string | Record<string, unknown>): Promise<LaneHarness> {
  const { app, clock, store } = await buildTestApp({ seed });
  let laned = 0;
  const record = app.journal.recordAnswered.bind(app.journal);
  app.journal.recordAnswered = (answered) => {
    laned++;
    record(answered);
  };
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return {
    app,
    clock,
    store,
    base,
    async send(path, init) {
      const before = laned;
      const res = await fetch(base + path, init);
      const headers: Record<string, string> = {};
      res.headers.forEach((value, name) => {
        if (name !== 'date' && name !== 'keep-alive' && name !== 'connection') headers[name] = value;
      });
      return { status: res.status, headers, body: await res.text(), routed: laned === before };
    },
  };
}
