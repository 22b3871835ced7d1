// The v1 routes modules and older scripts still call (docs/datasets.md, "v1"): get, readTable, and the two
// uploads. v1 names the branch `branchId`.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceDeps } from '../../service-module.js';
import type { Datasets } from '../operations.js';
import { datasetWire, fileWire } from '../shapes.js';
import { invalidFilePath } from '../errors.js';
import { pathProblem } from '../paths.js';
import { readAuth, writeAuth } from './common.js';
import { one, type Query } from './query.js';
import { readTable } from './read-table.js';
import { upload } from './files.js';
import { uploadCaps } from '../caps.js';

const V1 = '/api/v1/datasets';
type Req = FastifyRequest<{ Params: { datasetRid: string; transactionRid: string }; Querystring: Query }>;

function checkedPath(path: string | undefined): string {
  const problem = pathProblem(path ?? '');
  if (problem) throw invalidFilePath(path ?? '', problem);
  return path!;
}

export function v1Routes(app: FastifyInstance, datasets: Datasets, deps: ServiceDeps): void {
  app.get(`${V1}/:datasetRid`, { config: readAuth }, async (request: Req) => datasetWire(await datasets.dataset(request.params.datasetRid)));

  app.get(`${V1}/:datasetRid/readTable`, { config: readAuth }, async (request: Req, reply: FastifyReply) =>
    readTable(datasets, request.params.datasetRid, request.query, reply, 'branchId'),
  );

  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    const caps = uploadCaps(deps.seed);
    // `files::upload` is the literal `files:upload` (a single colon would start a parameter).
    scope.post(`${V1}/:datasetRid/files::upload`, { config: writeAuth, bodyLimit: caps.maxBytes }, async (request: Req, reply: FastifyReply) =>
      fileWire(await upload(request, reply, datasets, caps, request.params.datasetRid, checkedPath(one(request.query, 'filePath')))),
    );
    scope.put(
      `${V1}/:datasetRid/transactions/:transactionRid/files/*`,
      { config: writeAuth, bodyLimit: caps.maxBytes },
      async (request: Req, reply: FastifyReply) => {
        const raw = (request.raw.url ?? '').split('?')[0]!;
        const encoded = raw.slice(raw.indexOf('/files/') + '/files/'.length);
        let path: string;
        try {
          path = decodeURIComponent(encoded);
        } catch {
          throw invalidFilePath(encoded.slice(0, 64), 'the file path has a malformed percent-escape');
        }
        return fileWire(await upload(request, reply, datasets, caps, request.params.datasetRid, checkedPath(path), request.params.transactionRid));
      },
    );
  });
}
