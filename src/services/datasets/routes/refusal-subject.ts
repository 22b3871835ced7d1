// What a datasets refusal is about, for the journal and the log line (FastifyContextConfig.refusalSubject): the
// dataset, branch and transaction the request names, each added unless the reason names it already. A refusal
// decided before any record was looked up (a bad path, a bad parameter) is so still tied to its dataset.
import type { FastifyRequest } from 'fastify';
import { quote } from '../../../errors.js';

const first = (value: unknown): string | undefined => {
  const one = Array.isArray(value) ? value[0] : value;
  return typeof one === 'string' && one !== '' ? one : undefined;
};

export function datasetsSubject(request: FastifyRequest, reason: string): string | undefined {
  const params = (request.params ?? {}) as Record<string, unknown>;
  const query = (request.query ?? {}) as Record<string, unknown>;
  const named: Array<[string, string | undefined]> = [
    ['dataset', first(params.datasetRid)],
    ['branch', first(params.branchName) ?? first(params.branchId) ?? first(query.branchName) ?? first(query.branchId)],
    ['transaction', first(params.transactionRid) ?? first(query.transactionRid)],
    ['start transaction', first(query.startTransactionRid)],
    ['end transaction', first(query.endTransactionRid)],
  ];
  const parts = named.flatMap(([what, value]) => (value === undefined || reason.includes(value) ? [] : [`${what} ${quote(value)}`]));
  return parts.length > 0 ? parts.join(', ') : undefined;
}
