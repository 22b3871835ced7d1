// What a datasets refusal is about, for the journal and the log line (FastifyContextConfig.refusalSubject): the
// dataset, branch and transaction the request names, each added unless the reason names it already, and only
// values a reason may show (errors.ts `shown`). A refusal decided before any record was looked up (a bad path, a
// bad parameter) is so still tied to its dataset.
import type { FastifyRequest } from 'fastify';
import { shown } from '../errors.js';

/** The parameter's value as the routes take it: the last one given (routes/query.ts `one`). */
const last = (value: unknown): string | undefined => {
  const one = Array.isArray(value) ? value[value.length - 1] : value;
  return typeof one === 'string' && one !== '' ? one : undefined;
};

export function datasetsSubject(request: FastifyRequest, reason: string): string | undefined {
  const params = (request.params ?? {}) as Record<string, unknown>;
  const query = (request.query ?? {}) as Record<string, unknown>;
  const named: Array<[string, string | undefined]> = [
    ['dataset', last(params.datasetRid)],
    ['branch', last(params.branchName) ?? last(params.branchId) ?? last(query.branchName) ?? last(query.branchId)],
    ['transaction', last(params.transactionRid) ?? last(query.transactionRid)],
    ['start transaction', last(query.startTransactionRid)],
    ['end transaction', last(query.endTransactionRid)],
  ];
  const parts: string[] = [];
  for (const [what, value] of named) {
    if (value === undefined) continue;
    // As the reason would quote it; a value not shown there (not a name, or a token) is left out here too.
    const text = shown(value);
    if (text.startsWith('"') && !reason.includes(text)) parts.push(`${what} ${text}`);
  }
  return parts.length > 0 ? parts.join(', ') : undefined;
}
