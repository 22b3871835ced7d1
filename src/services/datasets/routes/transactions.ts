// Transactions: open (one per branch), get, commit, abort (docs/datasets.md, "Transactions and views").
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { Datasets } from '../operations.js';
import { DEFAULT_BRANCH } from '../operations.js';
import { transactionWire } from '../shapes.js';
import { V2, readAuth, writeAuth } from './common.js';
import { one, transactionType, type Query } from './query.js';

const CreateBody = Type.Object({ transactionType: Type.String() });
type Req<B = unknown> = FastifyRequest<{ Params: { datasetRid: string; transactionRid: string }; Querystring: Query; Body: B }>;

export function transactionRoutes(app: FastifyInstance, datasets: Datasets): void {
  app.post(`${V2}/:datasetRid/transactions`, { config: writeAuth, schema: { body: CreateBody } }, async (request: Req<{ transactionType: string }>) => {
    const { datasetRid } = request.params;
    const type = transactionType(datasetRid, request.body.transactionType)!;
    return transactionWire(await datasets.open(datasetRid, one(request.query, 'branchName') ?? DEFAULT_BRANCH, type));
  });

  app.get(`${V2}/:datasetRid/transactions/:transactionRid`, { config: readAuth }, async (request: Req) =>
    transactionWire(await datasets.transaction(request.params.datasetRid, request.params.transactionRid)),
  );

  app.post(`${V2}/:datasetRid/transactions/:transactionRid/commit`, { config: writeAuth }, async (request: Req) =>
    transactionWire(await datasets.close(request.params.datasetRid, request.params.transactionRid, 'COMMITTED')),
  );

  app.post(`${V2}/:datasetRid/transactions/:transactionRid/abort`, { config: writeAuth }, async (request: Req) =>
    transactionWire(await datasets.close(request.params.datasetRid, request.params.transactionRid, 'ABORTED')),
  );
}
