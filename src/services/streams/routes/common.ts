// What every streams route file shares: scopes and query parsing (docs/streams.md).
import type { FastifyRequest } from 'fastify';
import { invalidParameter } from '../errors.js';

export const READ = 'api:streams-read';
export const WRITE = 'api:streams-write';
export const readAuth = { auth: { kind: 'bearer', scope: READ } } as const;
export const writeAuth = { auth: { kind: 'bearer', scope: WRITE } } as const;

export type Query = Record<string, string | string[] | undefined>;
export type Req<P = { datasetRid: string; branch: string }, B = unknown> = FastifyRequest<{ Params: P; Querystring: Query; Body: B }>;

export function one(q: Query, name: string): string | undefined {
  const v = q[name];
  return Array.isArray(v) ? v[v.length - 1] : v;
}

/** A whole number query parameter (the Python SDK sends longs as text); undefined when absent. */
export function wholeNumber(q: Query, name: string, min: number): number | undefined {
  const v = one(q, name);
  if (v === undefined) return undefined;
  if (!/^-?\d{1,15}$/.test(v) || Number(v) < min)
    throw invalidParameter(name, `it must be a whole number of at least ${min}, got ${JSON.stringify(v.slice(0, 32))}`);
  return Number(v);
}
