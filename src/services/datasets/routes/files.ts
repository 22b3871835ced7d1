// Files of a dataset (docs/datasets.md, "Files"): list a view, a file's metadata and content, upload (raw bytes
// streamed to the byte store, capped by limits.max_dataset_file_bytes) and delete. A path may hold `/`, so the
// routes take everything after `/files/` and look at its end for `/content` and `/upload`.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceDeps } from '../../service-module.js';
import type { Datasets } from '../operations.js';
import type { FileRecord } from '../model.js';
import { fileWire, page } from '../shapes.js';
import { fileTooLarge, invalidFilePath } from '../errors.js';
import { V2, filePathOf, namesEmptyItem, readAuth, writeAuth } from './common.js';
import { one, paging, rangeOf, transactionType, type Query } from './query.js';
import { excerpt, notFound } from '../../../errors.js';
import { uploadCaps } from '../caps.js';
import type { UploadCaps } from '../../../blobs/index.js';

type Req = FastifyRequest<{ Params: { datasetRid: string }; Querystring: Query }>;

export function fileRoutes(app: FastifyInstance, datasets: Datasets, deps: ServiceDeps): void {
  app.get(`${V2}/:datasetRid/files`, { config: readAuth }, async (request: Req) => {
    const { datasetRid } = request.params;
    if (namesEmptyItem(request.raw.url ?? '')) throw invalidFilePath('', 'the file path is empty');
    const files = withPrefix(await datasets.view(await datasets.readRange(datasetRid, rangeOf(request.query))), one(request.query, 'pathPrefix'));
    return page(files, fileWire, ...paging(request.url, request.query));
  });

  app.get(`${V2}/:datasetRid/files/*`, { config: readAuth }, async (request: Req, reply: FastifyReply) => {
    const { datasetRid } = request.params;
    const { path, suffixed } = filePathOf(request.raw.url ?? '', 'content');
    // The metadata read keeps FileNotFound; the content read knows only the branch's and range's own errors.
    const file = await datasets.file(await datasets.readRange(datasetRid, rangeOf(request.query)), path, suffixed);
    if (!suffixed) return fileWire(file);
    const info = file.blobId === undefined ? undefined : await datasets.blobs.stat(file.blobId);
    const bytes = file.blobId === undefined ? undefined : await datasets.blobs.open(file.blobId);
    if (!info || !bytes) throw notFound('FileNotFound', { datasetRid, filePath: path }).because(`the bytes of ${JSON.stringify(path)} are gone from the store`);
    return reply.type(info.contentType).header('content-length', String(info.size)).send(bytes);
  });

  app.delete(`${V2}/:datasetRid/files/*`, { config: writeAuth }, async (request: Req, reply: FastifyReply) => {
    const { path } = filePathOf(request.raw.url ?? '');
    const transactionRid = one(request.query, 'transactionRid');
    const branchName = one(request.query, 'branchName');
    await datasets.deleteFile(request.params.datasetRid, path, {
      ...(transactionRid === undefined ? {} : { transactionRid }),
      ...(branchName === undefined ? {} : { branchName }),
    });
    return reply.code(204).send();
  });

  // Uploads read the request itself: their own scope, where no parser consumes the body.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    const caps = uploadCaps(deps.seed);
    // The route's own body limit: the framework refuses a larger declared Content-Length with its 1 MiB default.
    scope.post(`${V2}/:datasetRid/files/*`, { config: writeAuth, bodyLimit: caps.maxBytes }, async (request: Req, reply: FastifyReply) => {
      const { datasetRid } = request.params;
      const { path, suffixed } = filePathOf(request.raw.url ?? '', 'upload');
      // The framework's own 404 for a route that does not exist (docs/contracts.md §1), which this one is.
      if (!suffixed) {
        const urlPath = (request.raw.url ?? '').split('?', 1)[0]!;
        throw notFound('NotFound', { path: excerpt(urlPath, 256) }).because(
          `No route answers POST ${excerpt(urlPath, 256)}: a POST under /files/ ends in /upload`,
        );
      }
      const file = await upload(request, reply, datasets, caps, datasetRid, path);
      return fileWire(file);
    });
  });
}

/** The files under `prefix` (the Python SDK's pathPrefix): a file whose path is the prefix itself is alone in the list. */
function withPrefix(files: FileRecord[], prefix: string | undefined): FileRecord[] {
  if (prefix === undefined || prefix === '') return files;
  const exact = files.find((f) => f.path === prefix);
  return exact ? [exact] : files.filter((f) => f.path.startsWith(prefix));
}

/** Streams the request body into the dataset; used by the v2 and v1 upload routes. */
export async function upload(
  request: FastifyRequest<{ Querystring: Query }>,
  reply: FastifyReply,
  datasets: Datasets,
  { maxBytes, maxHeldBytes }: UploadCaps,
  datasetRid: string,
  path: string,
  transactionRidOverride?: string,
) {
  const declared = Number(request.headers['content-length'] ?? NaN);
  // A body that says it is too large is refused unread; the connection closes, since the client may still be sending.
  if (declared > maxBytes) {
    reply.header('connection', 'close');
    throw fileTooLarge(maxBytes);
  }
  const q = request.query;
  const transactionRid = transactionRidOverride ?? one(q, 'transactionRid');
  // v1's PUT names its transaction in the path and takes no branch or type: the query's are not read (they were
  // refused as a combination with a transactionRid the caller never sent).
  const inPath = transactionRidOverride !== undefined;
  const branchName = inPath ? undefined : (one(q, 'branchName') ?? one(q, 'branchId'));
  const type = inPath ? undefined : transactionType(datasetRid, one(q, 'transactionType'));
  const contentType = request.headers['content-type'];
  try {
    return await datasets.upload(datasetRid, path, request.raw, {
      maxBytes,
      maxHeldBytes,
      ...(transactionRid === undefined ? {} : { transactionRid }),
      ...(branchName === undefined ? {} : { branchName }),
      ...(type === undefined ? {} : { transactionType: type }),
      ...(contentType === undefined ? {} : { contentType }),
      ...(Number.isFinite(declared) ? { declaredBytes: declared } : {}),
    });
  } finally {
    if (!request.raw.complete) reply.header('connection', 'close');
  }
}
