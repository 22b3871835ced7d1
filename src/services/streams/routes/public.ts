// The public streams routes (docs/streams.md, "Routes"): create a streaming dataset, create a stream on a
// dataset, get it, reset it. Wire shapes of @osdk/foundry.streams 2.38.0 and foundry-platform-sdk 1.111.0.
import type { FastifyInstance } from 'fastify';
import type { Streams, StreamSettings } from '../operations.js';
import { wireStream } from '../operations.js';
import { readAuth, writeAuth, type Req } from './common.js';
import { invalidParameter } from '../errors.js';

const V2 = '/api/v2/streams/datasets';

interface CreateDatasetBody extends StreamSettings {
  name?: unknown;
  parentFolderRid?: unknown;
  branchName?: unknown;
}

const text = (v: unknown, name: string): string => {
  if (typeof v !== 'string' || v === '') throw invalidParameter(name, 'it must be a non-empty string');
  return v;
};
const optionalBool = (v: unknown, name: string): boolean | undefined => {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw invalidParameter(name, 'it must be true or false');
  return v;
};
const optionalInt = (v: unknown, name: string): number | undefined => {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw invalidParameter(name, 'it must be a whole number');
  return v;
};
const bodyOf = (b: unknown): Record<string, unknown> => {
  if (typeof b !== 'object' || b === null || Array.isArray(b)) throw invalidParameter('body', 'it must be a JSON object');
  return b as Record<string, unknown>;
};
const settingsOf = (b: Record<string, unknown>, schemaRequired: boolean): Partial<StreamSettings> => {
  if (schemaRequired && b.schema === undefined) throw invalidParameter('schema', 'the request needs a schema');
  return {
    ...(b.schema === undefined ? {} : { schema: b.schema }),
    partitionsCount: optionalInt(b.partitionsCount, 'partitionsCount'),
    streamType: b.streamType ?? undefined,
    compressed: optionalBool(b.compressed, 'compressed'),
  };
};

export function publicRoutes(app: FastifyInstance, streams: Streams): void {
  app.post(`${V2}/create`, { config: writeAuth }, async (request: Req<unknown, CreateDatasetBody>) => {
    const b = bodyOf(request.body);
    const name = text(b.name, 'name');
    const parent = text(b.parentFolderRid, 'parentFolderRid');
    const branchName = b.branchName === undefined ? undefined : text(b.branchName, 'branchName');
    const { dataset } = await streams.createDataset(name, parent, { ...(settingsOf(b, true) as StreamSettings), ...(branchName ? { branchName } : {}) });
    return { rid: dataset.rid, name: dataset.name, parentFolderRid: dataset.parentFolderRid };
  });

  app.post(`${V2}/:datasetRid/streams`, { config: writeAuth }, async (request: Req<{ datasetRid: string }>) => {
    const b = bodyOf(request.body);
    const stream = await streams.createStream(request.params.datasetRid, text(b.branchName, 'branchName'), settingsOf(b, true) as StreamSettings);
    return wireStream(stream);
  });

  app.get(`${V2}/:datasetRid/streams/:branch`, { config: readAuth }, async (request: Req) => {
    return wireStream(await streams.get(request.params.datasetRid, request.params.branch));
  });

  app.post(`${V2}/:datasetRid/streams/:branch/reset`, { config: writeAuth }, async (request: Req) => {
    const b = request.body === undefined || request.body === null ? {} : bodyOf(request.body);
    return wireStream(await streams.reset(request.params.datasetRid, request.params.branch, settingsOf(b, false)));
  });
}
