// Query parameters as the SDKs send them: strings, repeated keys for lists (`columns=a&columns=b`).
import { invalidArgument } from '../../../errors.js';
import type { PageRequest } from '../../paging.js';
import { TRANSACTION_TYPES, type TransactionType } from '../model.js';
import { invalidTransactionType, shown } from '../errors.js';

export type Query = Record<string, string | string[] | undefined>;

export function one(q: Query, name: string): string | undefined {
  const v = q[name];
  return Array.isArray(v) ? v[v.length - 1] : v;
}

export function list(q: Query, name: string): string[] {
  const v = q[name];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

export function positive(q: Query, name: string): number | undefined {
  const v = one(q, name);
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v) || Number(v) < 1)
    throw invalidArgument('InvalidParameterValue', { parameter: name }, `${name} must be a positive integer.`).because(`${name} was ${shown(v)}`);
  return Number(v);
}

export function transactionType(datasetRid: string, value: unknown): TransactionType | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && (TRANSACTION_TYPES as readonly string[]).includes(value)) return value as TransactionType;
  throw invalidTransactionType(datasetRid, '', String(value), `transaction type ${shown(String(value))} is none of SNAPSHOT, APPEND, UPDATE, DELETE`);
}

/** A listing's page request, and the key its page tokens are bound to: the path and every other parameter. */
export function paging(url: string, q: Query): [PageRequest, string] {
  const pageSize = one(q, 'pageSize');
  const pageToken = one(q, 'pageToken');
  const others = Object.entries(q)
    .filter(([k]) => k !== 'pageSize' && k !== 'pageToken')
    .sort(([a], [b]) => (a < b ? -1 : 1));
  const request = { ...(pageSize === undefined ? {} : { pageSize }), ...(pageToken === undefined ? {} : { pageToken }) };
  return [request, `${url.split('?')[0]}?${JSON.stringify(others)}`];
}

/** The view parameters of a read. */
export const rangeOf = (q: Query) => {
  const branchName = one(q, 'branchName');
  const startTransactionRid = one(q, 'startTransactionRid');
  const endTransactionRid = one(q, 'endTransactionRid');
  return {
    ...(branchName === undefined ? {} : { branchName }),
    ...(startTransactionRid === undefined ? {} : { startTransactionRid }),
    ...(endTransactionRid === undefined ? {} : { endTransactionRid }),
  };
};
