// Branches and their transaction history (docs/datasets.md, "Branches").
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { Datasets } from '../operations.js';
import type { TransactionRecord } from '../model.js';
import { branchWire, page, transactionWire } from '../shapes.js';
import { V2, namesEmptyItem, readAuth, writeAuth } from './common.js';
import { branchNotFound } from '../errors.js';
import { paging, type Query } from './query.js';

const CreateBody = Type.Object({ name: Type.String(), transactionRid: Type.Optional(Type.String()) });
type Req<B = unknown> = FastifyRequest<{ Params: { datasetRid: string; branchName: string }; Querystring: Query; Body: B }>;

export function branchRoutes(app: FastifyInstance, datasets: Datasets): void {
  app.post(`${V2}/:datasetRid/branches`, { config: writeAuth, schema: { body: CreateBody } }, async (request: Req<{ name: string; transactionRid?: string }>) =>
    branchWire(await datasets.createBranch(request.params.datasetRid, request.body.name, request.body.transactionRid)),
  );

  app.get(`${V2}/:datasetRid/branches`, { config: readAuth }, async (request: Req) => {
    await datasets.dataset(request.params.datasetRid);
    if (namesEmptyItem(request.raw.url ?? '')) throw branchNotFound(request.params.datasetRid, '');
    const branches = await datasets.repo.branches(request.params.datasetRid);
    const open = await datasets.openTransactions(request.params.datasetRid);
    return page(branches, (b) => branchWire(b, open.get(b.name)?.rid), ...paging(request.url, request.query));
  });

  app.get(`${V2}/:datasetRid/branches/:branchName`, { config: readAuth }, async (request: Req) => {
    const branch = await datasets.branch(request.params.datasetRid, request.params.branchName);
    return branchWire(branch, (await datasets.openTransactions(branch.datasetRid)).get(branch.name)?.rid);
  });

  app.delete(`${V2}/:datasetRid/branches/:branchName`, { config: writeAuth }, async (request: Req, reply: FastifyReply) => {
    await datasets.deleteBranch(request.params.datasetRid, request.params.branchName);
    return reply.code(204).send();
  });

  // The branch's history, newest first: its open transaction, then the committed chain from its head.
  app.get(`${V2}/:datasetRid/branches/:branchName/transactions`, { config: readAuth }, async (request: Req) => {
    const branch = await datasets.branch(request.params.datasetRid, request.params.branchName);
    const all = await datasets.repo.transactions(branch.datasetRid);
    const byRid = new Map(all.map((t) => [t.rid, t]));
    const history: TransactionRecord[] = all.filter((t) => t.branch === branch.name && t.status === 'OPEN');
    for (
      let t = branch.head === undefined ? undefined : byRid.get(branch.head);
      t && history.length <= all.length;
      t = t.parent === undefined ? undefined : byRid.get(t.parent)
    )
      history.push(t);
    return page(history, transactionWire, ...paging(request.url, request.query));
  });
}
