// Every datasets route, v2 and v1 (docs/datasets.md).
import type { FastifyInstance } from 'fastify';
import type { ServiceDeps } from '../../service-module.js';
import { Datasets } from '../operations.js';
import { ParquetWarmup } from '../parquet-warmup.js';
import { datasetRoutes } from './datasets.js';
import { branchRoutes } from './branches.js';
import { transactionRoutes } from './transactions.js';
import { fileRoutes } from './files.js';
import { readTable } from './read-table.js';
import { v1Routes } from './v1.js';
import { V2, readAuth } from './common.js';
import type { Query } from './query.js';
import { useJsonBodies } from '../../../http/body-parsers.js';

export async function datasetsRoutes(parent: FastifyInstance, deps: ServiceDeps): Promise<void> {
  const warmup = new ParquetWarmup();
  // One-call uploads are held under this instance's lease; one of a gone instance is taken back and said so.
  const datasets = new Datasets(deps.store, deps.clock, warmup, true, {
    lease: deps.instance,
    reclaimed: (taken) =>
      parent.log.info(taken, 'aborted the open transaction of a one-call upload or delete: the instance holding it has gone (its lease lapsed)'),
  });
  // A Parquet warm-up under way stops when the app closes or resets (docs/datasets.md, "Parquet warm-up").
  parent.addHook('onClose', async () => warmup.cancel());
  parent.onReset(() => warmup.cancel());
  // The TypeScript SDK sends `Content-Type: application/json` with no body on commit, abort and deletes.
  await parent.register(async (app) => {
    useJsonBodies(app, { emptyIsNoBody: true });
    datasetRoutes(app, datasets);
    branchRoutes(app, datasets);
    transactionRoutes(app, datasets);
    fileRoutes(app, datasets, deps);
    app.get<{ Params: { datasetRid: string }; Querystring: Query }>(`${V2}/:datasetRid/readTable`, { config: readAuth }, async (request, reply) =>
      readTable(datasets, request.params.datasetRid, request.query, reply, 'branchName'),
    );
    v1Routes(app, datasets, deps);
  });
}
