// Resources of the tree (`@osdk/foundry.filesystem` 2.78.0 Resource): get, getBatch, getByPath,
// getByPathBatch, delete (to the trash), restore, permanentlyDelete and markings (docs/directory.md).
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Store } from '../../../store/store.js';
import type { Clock } from '../../../clock.js';
import { conflict, invalidArgument, notFound, permissionDenied } from '../../../errors.js';
import { TREE } from '../store/part.js';
import { providedBy, providersOf, treeWithProvided } from '../provided.js';
import type { ServiceModule } from '../../service-module.js';
import type { NodeRecord } from '../store/records.js';
import { descendants, markingsOf, nameTaken, pathSegments, place, resolvePath } from '../tree.js';
import { resourceWire } from '../wire.js';
import { pageOf } from '../../paging.js';
import { DIRECTORY } from '../../admin/directory/part.js';

export const READ = 'api:filesystem-read';
export const WRITE = 'api:filesystem-write';
const P = '/api/v2/filesystem/resources';
const RidParams = Type.Object({ resourceRid: Type.String() });
const Paging = Type.Object({ pageSize: Type.Optional(Type.String()), pageToken: Type.Optional(Type.String()), preview: Type.Optional(Type.String()) });
const ridOf = (request: { params: unknown }) => ({ resourceRid: (request.params as { resourceRid?: string }).resourceRid ?? '' });
const MarkingsBody = Type.Object({ markingIds: Type.Array(Type.String(), { maxItems: 500 }) });

export function resourceRoutes(parent: FastifyInstance, deps: { store: Store; clock: Clock; services: readonly ServiceModule[] }): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const providers = providersOf(deps.services);
  const tree = () => treeWithProvided(deps.store.part(TREE), deps.store, providers);
  const now = () => new Date(deps.clock.now()).toISOString();

  const existing = async (rid: string): Promise<NodeRecord> => {
    const node = await tree().get(rid);
    if (!node) throw notFound('ResourceNotFound', { resourceRid: rid }).because(`no resource has the rid ${rid}`);
    return node;
  };
  const wire = async (node: NodeRecord) => resourceWire(await place(tree(), node));
  const byPath = async (path: string) => {
    const segments = pathSegments(path);
    if (!segments) throw invalidArgument('InvalidPath', { path }).because('a path is /Space/Project/folder/.../name, with no empty names');
    return resolvePath(tree(), segments);
  };
  const touched = (node: NodeRecord, who: string): NodeRecord => ({ ...node, updatedBy: who, updatedTime: now() });

  app.get(`${P}/:resourceRid`, {
    config: { auth: { kind: 'bearer', scope: READ } },
    schema: { params: RidParams },
    handler: async (request) => wire(await existing(request.params.resourceRid)),
  });

  app.post(`${P}/getBatch`, {
    config: { auth: { kind: 'bearer', scope: READ } },
    schema: { body: Type.Array(Type.Object({ resourceRid: Type.String() }), { maxItems: 1000 }) },
    handler: async (request) => {
      const data: Record<string, Awaited<ReturnType<typeof wire>>> = {};
      for (const { resourceRid } of request.body) {
        const node = await tree().get(resourceRid);
        if (node) data[resourceRid] = await wire(node);
      }
      return { data };
    },
  });

  app.get(`${P}/getByPath`, {
    config: {
      auth: {
        kind: 'bearer',
        scope: READ,
        denied: { errorName: 'GetByPathPermissionDenied', parameters: (r) => ({ path: (r.query as { path?: string }).path ?? '' }) },
      },
    },
    schema: { querystring: Type.Object({ path: Type.String(), preview: Type.Optional(Type.String()) }) },
    handler: async (request) => {
      const node = await byPath(request.query.path);
      if (!node) throw notFound('PathNotFound', { path: request.query.path }).because(`nothing lives at ${request.query.path}`);
      return wire(node);
    },
  });

  app.post(`${P}/getByPathBatch`, {
    config: { auth: { kind: 'bearer', scope: READ } },
    schema: { body: Type.Array(Type.Object({ path: Type.String() }), { maxItems: 1000 }) },
    handler: async (request) => {
      // Paths that lead nowhere are left out, as the platform does.
      const data = [];
      for (const { path } of request.body) {
        const node = await byPath(path);
        if (node) data.push(await wire(node));
      }
      return { data };
    },
  });

  app.delete(`${P}/:resourceRid`, {
    config: { auth: { kind: 'bearer', scope: WRITE, denied: { errorName: 'DeleteResourcePermissionDenied', parameters: ridOf } } },
    schema: { params: RidParams },
    handler: async (request, reply) => {
      const node = await existing(request.params.resourceRid);
      if (node.kind === 'SPACE') throw invalidArgument('TrashingSpaceNotSupported', { resourceRid: node.rid }).because('a space cannot be trashed');
      // To the trash, with everything below it (trashed through it); nothing is lost until permanentlyDelete.
      if (!node.trashed) await tree().put(touched({ ...node, trashed: true }, request.principal!.id));
      return reply.code(204).send();
    },
  });

  app.post(`${P}/:resourceRid/restore`, {
    config: { auth: { kind: 'bearer', scope: WRITE, denied: { errorName: 'RestoreResourcePermissionDenied', parameters: ridOf } } },
    schema: { params: RidParams },
    handler: async (request, reply) => {
      const node = await existing(request.params.resourceRid);
      if (!node.trashed) {
        const placed = await place(tree(), node);
        if (placed.ancestors.some((a) => a.trashed))
          throw invalidArgument('ResourceNotDirectlyTrashed', { resourceRid: node.rid }).because(
            'it is in the trash through a folder above it: restore that folder',
          );
        throw invalidArgument('ResourceNotTrashed', { resourceRid: node.rid }).because('it is not in the trash');
      }
      if (await nameTaken(tree(), node.parentRid, node.displayName, node.rid)) {
        throw conflict('ResourceNameAlreadyExists', { parentFolderRid: node.parentRid ?? '', displayName: node.displayName }).because(
          `its folder holds another "${node.displayName}" now`,
        );
      }
      await tree().put(touched({ ...node, trashed: false }, request.principal!.id));
      return reply.code(204).send();
    },
  });

  app.post(`${P}/:resourceRid/permanentlyDelete`, {
    config: { auth: { kind: 'bearer', scope: WRITE, denied: { errorName: 'PermanentlyDeleteResourcePermissionDenied', parameters: ridOf } } },
    schema: { params: RidParams },
    handler: async (request, reply) => {
      const node = await existing(request.params.resourceRid);
      if (!node.trashed)
        throw invalidArgument('ResourceNotTrashed', { resourceRid: node.rid }).because('only a resource in the trash can be deleted for good: delete it first');
      const below = await descendants(tree(), node.rid);
      // Another service's resource is its owner's to delete: the tree only hides it (docs/directory.md).
      for (const n of [node, ...below])
        if (await providedBy(deps.store, providers, n.rid))
          throw permissionDenied('PermanentlyDeleteResourcePermissionDenied', { resourceRid: node.rid }).because(
            `${n.rid} (${n.displayName}) belongs to another service (${n.type}); only its own routes delete it for good. Restore it, or leave it in the trash.`,
          );
      await tree().remove([...below.map((n) => n.rid).reverse(), node.rid]);
      return reply.code(204).send();
    },
  });

  app.get(`${P}/:resourceRid/markings`, {
    config: { auth: { kind: 'bearer', scope: READ } },
    schema: { params: RidParams, querystring: Paging },
    handler: async (request) => {
      const node = await existing(request.params.resourceRid);
      return pageOf(markingsOf(await place(tree(), node)), request.query, `resources/${node.rid}/markings`);
    },
  });

  for (const [verb, errorName] of [
    ['addMarkings', 'AddMarkingsPermissionDenied'],
    ['removeMarkings', 'RemoveMarkingsPermissionDenied'],
  ] as const) {
    app.post(`${P}/:resourceRid/${verb}`, {
      config: { auth: { kind: 'bearer', scope: WRITE, denied: { errorName, parameters: ridOf } } },
      schema: { params: RidParams, body: MarkingsBody },
      handler: async (request, reply) => {
        const node = await existing(request.params.resourceRid);
        const ids = request.body.markingIds;
        if (verb === 'addMarkings') {
          for (const id of ids)
            if (!(await deps.store.part(DIRECTORY).marking(id))) throw notFound('MarkingNotFound', { markingId: id }).because(`no marking has the id ${id}`);
        }
        const markings = verb === 'addMarkings' ? [...new Set([...node.markings, ...ids])] : node.markings.filter((m) => !ids.includes(m));
        await tree().put(touched({ ...node, markings }, request.principal!.id));
        return reply.code(204).send();
      },
    });
  }
}
