// The high-scale routes (docs/streams.md, "Routes"): publish one, many or a binary record; read records and end
// offsets. Served under `/api/v2/highScale/...` (where both SDKs send them given a hostname) and under
// `/stream-proxy/api/v2/highScale/...` (where the Python SDK sends them after reading `stream_proxy` from the
// service-discovery file). Publishing answers 204.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { MAX_RECORD_BYTES, recordsJson, type Streams } from '../operations.js';
import { invalidParameter } from '../errors.js';
import { one, readAuth, wholeNumber, writeAuth, type Req } from './common.js';

/** Room for the largest record and its envelope; a batch gets more (its records are checked one by one). */
const ONE_RECORD_BODY = MAX_RECORD_BYTES + 64 * 1024;
const BATCH_BODY = 32 * 1024 * 1024;

const viewRidOf = (request: Req, body?: unknown): string | undefined => {
  const fromBody = (body as { viewRid?: unknown } | undefined)?.viewRid;
  if (fromBody !== undefined && fromBody !== null) {
    if (typeof fromBody !== 'string') throw invalidParameter('viewRid', 'it must be a string');
    return fromBody;
  }
  return one(request.query, 'viewRid');
};
const objectBody = (b: unknown): Record<string, unknown> => {
  if (typeof b !== 'object' || b === null || Array.isArray(b)) throw invalidParameter('body', 'it must be a JSON object');
  return b as Record<string, unknown>;
};

export function highScaleRoutes(app: FastifyInstance, streams: Streams, base: string): void {
  const at = `${base}/v2/highScale/streams/datasets/:datasetRid/streams/:branch`;
  const target = async (request: Req, body?: unknown) => {
    return streams.at(request.params.datasetRid, request.params.branch, viewRidOf(request, body));
  };

  app.post(`${at}/publishRecord`, { config: writeAuth, bodyLimit: ONE_RECORD_BODY }, async (request: Req, reply: FastifyReply) => {
    const b = objectBody(request.body);
    const stream = await target(request, b);
    if (b.record === undefined) throw invalidParameter('record', 'the request needs a record');
    await streams.publish(stream, [b.record], false);
    return reply.code(204).send();
  });

  app.post(`${at}/publishRecords`, { config: writeAuth, bodyLimit: BATCH_BODY }, async (request: Req, reply: FastifyReply) => {
    const b = objectBody(request.body);
    const stream = await target(request, b);
    if (!Array.isArray(b.records)) throw invalidParameter('records', 'the request needs a list of records');
    await streams.publish(stream, b.records, true);
    return reply.code(204).send();
  });

  app.post(`${at}/publishBinaryRecord`, { config: writeAuth, bodyLimit: MAX_RECORD_BYTES * 2 }, async (request: Req, reply: FastifyReply) => {
    const stream = await target(request);
    const body = request.body;
    const bytes = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
    await streams.publishBinary(stream, bytes);
    return reply.code(204).send();
  });

  app.get(`${at}/getRecords`, { config: readAuth }, async (request: Req, reply: FastifyReply) => {
    const stream = await target(request);
    const partition = one(request.query, 'partitionId');
    if (partition === undefined) throw invalidParameter('partitionId', 'the request needs a partitionId');
    const limit = wholeNumber(request.query, 'limit', 1);
    if (limit === undefined) throw invalidParameter('limit', 'the request needs a limit');
    const start = wholeNumber(request.query, 'startOffset', 0);
    const p = Number(partition);
    if (!/^\d+$/.test(partition) || p >= stream.partitionsCount)
      throw invalidParameter('partitionId', `the stream has partitions 0 to ${stream.partitionsCount - 1}, not ${JSON.stringify(partition.slice(0, 32))}`);
    // Records all live in partition 0 (docs/streams.md); the others read empty.
    if (p !== 0) return reply.type('application/json').send('[]');
    const { records } = await streams.read(stream, start, limit);
    return reply.type('application/json').send(recordsJson(records));
  });

  app.get(`${at}/getEndOffsets`, { config: readAuth }, async (request: Req) => streams.endOffsets(await target(request)));
}
