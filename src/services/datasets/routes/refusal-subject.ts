// What a datasets refusal is about, for the journal and the log line (FastifyContextConfig.refusalSubject): the
// dataset, branch and transaction the request names, each added unless the reason names it already, and only
// values a reason may show (errors.ts `shown`). A refusal decided before any record was looked up (a bad path, a
// bad parameter) is so still tied to its dataset.
import type { FastifyRequest } from 'fastify';
import { shown } from '../errors.js';
import { one, type Query } from './query.js';

export function datasetsSubject(request: FastifyRequest, reason: string): string | undefined {
  const params = (request.params ?? {}) as Query;
  const query = (request.query ?? {}) as Query;
  // The value the routes take: a repeated parameter's last (`one`).
  const named: Array<[string, string | undefined]> = [
    ['dataset', one(params, 'datasetRid')],
    ['branch', one(params, 'branchName') ?? one(params, 'branchId') ?? one(query, 'branchName') ?? one(query, 'branchId')],
    ['transaction', one(params, 'transactionRid') ?? one(query, 'transactionRid')],
    ['start transaction', one(query, 'startTransactionRid')],
    ['end transaction', one(query, 'endTransactionRid')],
  ];
  const parts: string[] = [];
  for (const [what, value] of named) {
    if (typeof value !== 'string' || value === '') continue;
    // As the reason would quote it; a value not shown there (not a name, or a token) is left out here too.
    const text = shown(value);
    if (text.startsWith('"') && !reason.includes(text)) parts.push(`${what} ${text}`);
  }
  return parts.length > 0 ? parts.join(', ') : undefined;
}
