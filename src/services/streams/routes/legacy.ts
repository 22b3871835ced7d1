// The stream proxy's older routes (docs/streams.md, "Legacy routes"), as the platform's getting-started pipeline
// calls them: read a branch's records, publish one bare record, publish `[{value}]` to a view.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { MAX_READ_RECORDS, MAX_RECORD_BYTES, recordsJson, type Streams } from '../operations.js';
import { invalidParameter, viewNotFound } from '../errors.js';
import { readAuth, wholeNumber, writeAuth, type Req } from './common.js';

const PROXY = '/stream-proxy/api/streams';

export function legacyRoutes(app: FastifyInstance, streams: Streams): void {
  // No parameters on the platform; `startOffset` and `limit` are ours, for a reader that keeps its place.
  app.get(`${PROXY}/:datasetRid/branches/:branch/records`, { config: readAuth }, async (request: Req, reply: FastifyReply) => {
    const stream = await streams.at(request.params.datasetRid, request.params.branch);
    const start = wholeNumber(request.query, 'startOffset', 0);
    const limit = wholeNumber(request.query, 'limit', 1) ?? MAX_READ_RECORDS;
    const { records } = await streams.read(stream, start, limit);
    return reply.type('application/json').send(recordsJson(records));
  });

  app.post(
    `${PROXY}/:datasetRid/branches/:branch/jsonRecord`,
    { config: writeAuth, bodyLimit: MAX_RECORD_BYTES + 1024 },
    async (request: Req, reply: FastifyReply) => {
      const stream = await streams.at(request.params.datasetRid, request.params.branch);
      await streams.publish(stream, [request.body], false);
      return reply.code(204).send();
    },
  );

  app.post(
    `${PROXY}/:datasetRid/views/:viewRid/jsonRecords`,
    { config: writeAuth, bodyLimit: 32 * 1024 * 1024 },
    async (request: Req<{ datasetRid: string; viewRid: string }>, reply: FastifyReply) => {
      const stream = await streams.byView(request.params.viewRid);
      if (stream.datasetRid !== request.params.datasetRid) throw viewNotFound(request.params.viewRid);
      const body = request.body;
      if (!Array.isArray(body)) throw invalidParameter('body', 'it must be a list of {value} objects');
      const values = body.map((item, i) => {
        if (typeof item !== 'object' || item === null || !('value' in item)) throw invalidParameter(`[${i}]`, 'each item must be an object with a value');
        return (item as { value: unknown }).value;
      });
      await streams.publish(stream, values, true);
      return reply.code(204).send();
    },
  );
}
