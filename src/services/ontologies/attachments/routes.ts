// Attachments and media on the wire (docs/live-ontology.md; @osdk/foundry.ontologies and @osdk/foundry.mediasets
// 2.57.0): uploads read the raw request body in their own scope (no parser consumes it) and stream it into the
// byte store under limits.max_ontology_file_bytes and the memory store's total, limits.max_memory_blob_bytes;
// reads stream the bytes back with their kept media type.
// Known deviations: media sets are one fixed set and view; `preview` and attribution are accepted and ignored;
// no transformations, no image previews.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceDeps } from '../../service-module.js';
import { findObjectType, findOntology, READ, WRITE } from '../context.js';
import { objectNotFound, propertiesNotFound } from '../errors.js';
import { invalidArgument } from '../../../errors.js';
import { attachmentWire, fileTooLarge, findFile, openFile, sweepExpired, uploadFile } from './files.js';
import { attachmentRidOf, mediaItemRidOf, mediaReference } from './values.js';
import type { OntologyFile } from './part.js';
import { fileCaps } from './caps.js';

type Query = Record<string, string | string[] | undefined>;
const one = (q: Query, key: string) => (Array.isArray(q[key]) ? q[key][0] : q[key]);

export function fileRoutes(parent: FastifyInstance, deps: ServiceDeps): void {
  const { store, clock } = deps;
  const { maxBytes, maxHeldBytes } = fileCaps(deps.seed);
  // Counted in the clock route's `swept` only when something expired.
  parent.onClockMoved(async (): Promise<Record<string, number>> => {
    const swept = await sweepExpired(store, clock);
    return swept ? { ontologyUploads: swept } : {};
  });

  const send = async (reply: FastifyReply, file: OntologyFile) => {
    reply.header('content-type', file.mediaType).header('content-length', String(file.sizeBytes));
    return reply.send(await openFile(store, file));
  };

  const upload = async (request: FastifyRequest, reply: FastifyReply, kind: 'attachment' | 'media') => {
    const declared = Number(request.headers['content-length'] ?? NaN);
    if (declared > maxBytes) {
      reply.header('connection', 'close');
      throw fileTooLarge(maxBytes);
    }
    try {
      return await uploadFile(store, clock, request.raw, {
        kind,
        filename: one(request.query as Query, 'filename') ?? '',
        contentType: request.headers['content-type'],
        maxBytes,
        maxHeldBytes,
      });
    } finally {
      if (!request.raw.complete) reply.header('connection', 'close');
    }
  };

  parent.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    // The typed client uploads a Blob without a type as `Content-Type:` (empty), which no parser matches: it
    // is read as no type at all, and the type comes from the name or the bytes.
    scope.addHook('onRequest', async (request) => {
      if (request.headers['content-type'] === '') delete request.headers['content-type'];
    });
    scope.post('/api/v2/ontologies/attachments/upload', { config: WRITE, bodyLimit: maxBytes }, async (request, reply) =>
      attachmentWire(await upload(request, reply, 'attachment')),
    );
    scope.put('/api/v2/mediasets/media/upload', { config: WRITE, bodyLimit: maxBytes }, async (request, reply) => {
      const file = await upload(request, reply, 'media');
      return mediaReference(file.rid, file.mediaType);
    });
  });

  parent.get<{ Params: { rid: string } }>('/api/v2/ontologies/attachments/:rid', { config: READ }, async (request) =>
    attachmentWire(await findFile(store, request.params.rid, 'attachment')),
  );
  parent.get<{ Params: { rid: string } }>('/api/v2/ontologies/attachments/:rid/content', { config: READ }, async (request, reply) =>
    send(reply, await findFile(store, request.params.rid, 'attachment')),
  );
  parent.get<{ Params: { set: string; item: string } }>('/api/v2/mediasets/:set/items/:item/content', { config: READ }, async (request, reply) =>
    send(reply, await findFile(store, request.params.item, 'media')),
  );

  // An object's file property: the value names the file; its type must be the property's.
  type P = { ontology: string; objectType: string; primaryKey: string; property: string; rid?: string };
  const propertyValue = async (params: P, kind: 'attachment' | 'mediaReference') => {
    const ontology = await findOntology(store, params.ontology);
    const type = findObjectType(ontology, params.objectType);
    const prop = type.properties.get(params.property);
    if (!prop) throw propertiesNotFound(type.apiName, [params.property]);
    if (prop.dataType.type !== kind)
      throw invalidArgument('InvalidPropertyType', { property: params.property, propertyBaseType: prop.dataType.type }).because(
        `Property ${params.property} of ${type.apiName} is a ${prop.dataType.type}, not a ${kind}.`,
      );
    const object = await store.ontologyObjects.get(ontology.rid, type.apiName, params.primaryKey);
    if (!object) throw objectNotFound(type.apiName, params.primaryKey);
    return object.values[params.property];
  };
  const attachmentOf = async (params: P): Promise<OntologyFile> => {
    const value = await propertyValue(params, 'attachment');
    const rid = attachmentRidOf(value);
    if (!rid || (params.rid !== undefined && params.rid !== rid)) throw findFileMissing(params.rid ?? params.property);
    return findFile(store, rid, 'attachment');
  };
  const findFileMissing = (what: string) => invalidArgument('AttachmentNotFound', { attachmentRid: what }).because(`The object holds no attachment ${what}.`);
  const mediaOf = async (params: P): Promise<OntologyFile> => {
    const rid = mediaItemRidOf(await propertyValue(params, 'mediaReference'));
    if (!rid) throw invalidArgument('MediaItemNotFound', { property: params.property }).because(`The object holds no media in ${params.property}.`);
    return findFile(store, rid, 'media');
  };

  const OBJ = '/api/v2/ontologies/:ontology/objects/:objectType/:primaryKey';
  parent.get<{ Params: P }>(`${OBJ}/attachments/:property`, { config: READ }, async (request) => ({
    type: 'single',
    ...attachmentWire(await attachmentOf(request.params)),
  }));
  parent.get<{ Params: P }>(`${OBJ}/attachments/:property/content`, { config: READ }, async (request, reply) =>
    send(reply, await attachmentOf(request.params)),
  );
  parent.get<{ Params: P }>(`${OBJ}/attachments/:property/:rid`, { config: READ }, async (request) => attachmentWire(await attachmentOf(request.params)));
  parent.get<{ Params: P }>(`${OBJ}/attachments/:property/:rid/content`, { config: READ }, async (request, reply) =>
    send(reply, await attachmentOf(request.params)),
  );
  parent.get<{ Params: P }>(`${OBJ}/media/:property/content`, { config: READ }, async (request, reply) => send(reply, await mediaOf(request.params)));
  parent.get<{ Params: P }>(`${OBJ}/media/:property/metadata`, { config: READ }, async (request) => {
    const file = await mediaOf(request.params);
    return { path: file.filename, sizeBytes: String(file.sizeBytes), mediaType: file.mediaType };
  });
}
