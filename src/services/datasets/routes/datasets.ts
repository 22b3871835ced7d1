// Datasets, their schemas and their transaction history (docs/datasets.md).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { Datasets } from '../operations.js';
import { datasetWire, page, schemaWire, transactionWire } from '../shapes.js';
import { getSchema, putSchema, findSchema } from '../schemas.js';
import type { DatasetSchema } from '../model.js';
import { V2, namesEmptyItem, readAuth, writeAuth } from './common.js';
import { transactionNotFound } from '../errors.js';
import { invalidArgument } from '../../../errors.js';
import { one, paging, type Query } from './query.js';

const CreateBody = Type.Object({ name: Type.String({ minLength: 1 }), parentFolderRid: Type.String({ minLength: 1 }) });
const FieldList = Type.Object(
  { fieldSchemaList: Type.Array(Type.Object({ type: Type.String(), nullable: Type.Boolean() }, { additionalProperties: true })) },
  { additionalProperties: true },
);
const PutSchemaBody = Type.Object({
  branchName: Type.Optional(Type.String()),
  dataframeReader: Type.Optional(Type.String()),
  endTransactionRid: Type.Optional(Type.String()),
  schema: FieldList,
});
const BatchBody = Type.Array(
  Type.Object({
    datasetRid: Type.String(),
    branchName: Type.Optional(Type.String()),
    endTransactionRid: Type.Optional(Type.String()),
    versionId: Type.Optional(Type.String()),
  }),
);
const MAX_BATCH = 1000;

type Req<B = unknown> = FastifyRequest<{ Params: { datasetRid: string }; Querystring: Query; Body: B }>;

export function datasetRoutes(app: FastifyInstance, datasets: Datasets): void {
  app.post(V2, { config: writeAuth, schema: { body: CreateBody } }, async (request: Req<{ name: string; parentFolderRid: string }>) =>
    datasetWire(await datasets.create(request.body.name, request.body.parentFolderRid)),
  );

  app.get(`${V2}/:datasetRid`, { config: readAuth }, async (request: Req) => datasetWire(await datasets.dataset(request.params.datasetRid)));

  app.get(`${V2}/:datasetRid/getSchema`, { config: readAuth }, async (request: Req) => {
    const q = request.query;
    const branchName = one(q, 'branchName');
    const endTransactionRid = one(q, 'endTransactionRid');
    const versionId = one(q, 'versionId');
    const schema = await getSchema(datasets, request.params.datasetRid, {
      ...(branchName === undefined ? {} : { branchName }),
      ...(endTransactionRid === undefined ? {} : { endTransactionRid }),
      ...(versionId === undefined ? {} : { versionId }),
    });
    return schemaWire(schema);
  });

  app.put(
    `${V2}/:datasetRid/putSchema`,
    { config: writeAuth, schema: { body: PutSchemaBody } },
    async (request: Req<{ branchName?: string; endTransactionRid?: string; dataframeReader?: string; schema: DatasetSchema }>) =>
      schemaWire(await putSchema(datasets, request.params.datasetRid, request.body)),
  );

  // Datasets not found, or without a schema, are left out of the answer (as the SDK documents).
  app.post(
    `${V2}/getSchemaBatch`,
    { config: readAuth, schema: { body: BatchBody } },
    async (request: Req<Array<{ datasetRid: string; branchName?: string; endTransactionRid?: string; versionId?: string }>>) => {
      if (request.body.length > MAX_BATCH)
        throw invalidArgument('BatchRequestSizeExceededLimit', { maximumBatchSize: MAX_BATCH, providedBatchSize: request.body.length }).because(
          `a schema batch holds at most ${MAX_BATCH} entries; this one held ${request.body.length}`,
        );
      const data: Record<string, unknown> = {};
      for (const { datasetRid, ...q } of request.body) {
        const found = await findSchema(datasets, datasetRid, q).catch(() => undefined);
        if (found) data[datasetRid] = schemaWire(found);
      }
      return { data };
    },
  );

  // Newest first, as the SDK documents.
  app.get(`${V2}/:datasetRid/transactions`, { config: readAuth }, async (request: Req) => {
    await datasets.dataset(request.params.datasetRid);
    if (namesEmptyItem(request.raw.url ?? '')) throw transactionNotFound(request.params.datasetRid, '');
    const all = (await datasets.repo.transactions(request.params.datasetRid)).reverse();
    return page(all, transactionWire, ...paging(request.url, request.query));
  });
}
