// What every streams route file shares: scopes, query parsing, and the build-token check (docs/streams.md).
import type { FastifyRequest } from 'fastify';
import type { Store } from '../../../store/store.js';
import { invalidParameter, resourceNotDeclared } from '../errors.js';
import { declaredRidsOf, isBuildToken } from '../pipeline/build-token.js';

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

/**
 * A build token (pipeline mode, docs/streams.md "Pipeline mode") may touch only the resources its app declared;
 * any other token passes (its scopes were checked already).
 */
export async function checkResource(request: FastifyRequest, store: Store, rid: string): Promise<void> {
  const token = request.accessToken;
  if (!token || !isBuildToken(token)) return;
  if (!(await declaredRidsOf(store, token)).includes(rid)) throw resourceNotDeclared(rid);
}
