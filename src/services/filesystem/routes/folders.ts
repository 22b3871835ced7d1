// Folders, projects and spaces of the tree (`@osdk/foundry.filesystem` 2.78.0): Folder create/get/getBatch/
// children, Project get/create, Space list/get (docs/directory.md).
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Store } from '../../../store/store.js';
import type { Clock } from '../../../clock.js';
import { conflict, invalidArgument, notFound } from '../../../errors.js';
import { randomUuid } from '../../../ids.js';
import { TREE } from '../store/part.js';
import { providersOf, treeWithProvided } from '../provided.js';
import type { ServiceModule } from '../../service-module.js';
import type { NodeKind, NodeRecord } from '../store/records.js';
import { nameTaken, place } from '../tree.js';
import { folderWire, projectWire, resourceWire, spaceWire } from '../wire.js';
import { pageOf } from '../../paging.js';
import { checkDisplayName } from '../../display-names.js';
import { READ, WRITE } from './resources.js';

const F = '/api/v2/filesystem/folders';
const Paging = Type.Object({ pageSize: Type.Optional(Type.String()), pageToken: Type.Optional(Type.String()), preview: Type.Optional(Type.String()) });
const Preview = Type.Object({ preview: Type.Optional(Type.String()) });
const CONTAINERS: readonly NodeKind[] = ['SPACE', 'PROJECT', 'FOLDER'];

export function folderRoutes(parent: FastifyInstance, deps: { store: Store; clock: Clock; services: readonly ServiceModule[] }): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const providers = providersOf(deps.services);
  const tree = () => treeWithProvided(deps.store.part(TREE), deps.store, providers);
  const now = () => new Date(deps.clock.now()).toISOString();

  const folder = async (rid: string) => {
    const node = await tree().get(rid);
    if (!node || !CONTAINERS.includes(node.kind))
      throw notFound('FolderNotFound', { folderRid: rid }).because(`no space, project or folder has the rid ${rid}`);
    return node;
  };
  const created = (kind: NodeKind, rid: string, displayName: string, parentRid: string | undefined, who: string, description?: string): NodeRecord => ({
    rid,
    kind,
    type: 'COMPASS_FOLDER',
    displayName,
    ...(description !== undefined ? { description } : {}),
    ...(parentRid !== undefined ? { parentRid } : {}),
    trashed: false,
    markings: [],
    createdBy: who,
    createdTime: now(),
    updatedBy: who,
    updatedTime: now(),
  });

  app.post(F, {
    config: { auth: { kind: 'bearer', scope: WRITE, denied: { errorName: 'CreateFolderPermissionDenied', parameters: () => ({}) } } },
    schema: { body: Type.Object({ parentFolderRid: Type.String(), displayName: Type.String() }) },
    handler: async (request) => {
      const { parentFolderRid, displayName } = request.body;
      const parentNode = await folder(parentFolderRid);
      if (parentNode.kind === 'SPACE')
        throw invalidArgument('CreateFolderOutsideProjectNotSupported', { parentFolderRid }).because(
          'a folder lives in a project or a folder, not directly in a space',
        );
      checkDisplayName(displayName);
      if (await nameTaken(tree(), parentFolderRid, displayName))
        throw conflict('ResourceNameAlreadyExists', { parentFolderRid, displayName }).because(`the folder holds a "${displayName}" already`);
      const node = created('FOLDER', `ri.compass.main.folder.${randomUuid()}`, displayName, parentFolderRid, request.principal!.id);
      await tree().put(node);
      return folderWire(await place(tree(), node));
    },
  });

  app.get(`${F}/:folderRid`, {
    config: { auth: { kind: 'bearer', scope: READ } },
    schema: { params: Type.Object({ folderRid: Type.String() }) },
    handler: async (request) => folderWire(await place(tree(), await folder(request.params.folderRid))),
  });

  app.post(`${F}/getBatch`, {
    config: { auth: { kind: 'bearer', scope: READ } },
    schema: { body: Type.Array(Type.Object({ folderRid: Type.String() }), { maxItems: 1000 }) },
    handler: async (request) => {
      const data: Record<string, ReturnType<typeof folderWire>> = {};
      for (const { folderRid } of request.body) {
        const node = await tree().get(folderRid);
        if (node && CONTAINERS.includes(node.kind)) data[folderRid] = folderWire(await place(tree(), node));
      }
      return { data };
    },
  });

  app.get(`${F}/:folderRid/children`, {
    config: { auth: { kind: 'bearer', scope: READ } },
    schema: { params: Type.Object({ folderRid: Type.String() }), querystring: Paging },
    handler: async (request) => {
      const node = await folder(request.params.folderRid);
      // Trashed children are not listed: they are in the trash, not in the folder.
      const kids = (await tree().children(node.rid)).filter((c) => !c.trashed);
      const page = pageOf(kids, request.query, `folders/${node.rid}/children`);
      const placed = await place(tree(), node);
      const here = { node, ancestors: placed.ancestors };
      return { ...page, data: page.data.map((child) => resourceWire({ node: child, ancestors: [...here.ancestors, node] })) };
    },
  });

  app.get('/api/v2/filesystem/projects/:projectRid', {
    config: { auth: { kind: 'bearer', scope: READ } },
    schema: { params: Type.Object({ projectRid: Type.String() }) },
    handler: async (request) => {
      const node = await tree().get(request.params.projectRid);
      if (!node || node.kind !== 'PROJECT')
        throw notFound('ProjectNotFound', { projectRid: request.params.projectRid }).because(`no project has the rid ${request.params.projectRid}`);
      return projectWire(await place(tree(), node));
    },
  });

  app.post('/api/v2/filesystem/projects/create', {
    config: { auth: { kind: 'bearer', scope: WRITE, denied: { errorName: 'CreateProjectPermissionDenied', parameters: () => ({}) } } },
    schema: {
      querystring: Preview,
      body: Type.Object({
        displayName: Type.String(),
        description: Type.Optional(Type.String()),
        spaceRid: Type.String(),
        roleGrants: Type.Record(Type.String(), Type.Array(Type.Unknown())),
        defaultRoles: Type.Array(Type.String()),
        organizationRids: Type.Array(Type.String()),
        resourceLevelRoleGrantsAllowed: Type.Optional(Type.Boolean()),
      }),
    },
    handler: async (request) => {
      const { displayName, spaceRid, description } = request.body;
      const space = await tree().get(spaceRid);
      if (!space || space.kind !== 'SPACE') throw notFound('SpaceNotFound', { spaceRid }).because(`no space has the rid ${spaceRid}`);
      checkDisplayName(displayName);
      if (await nameTaken(tree(), spaceRid, displayName))
        throw conflict('ProjectNameAlreadyExists', { displayName, spaceRid }).because(`the space holds a project "${displayName}" already`);
      const node = created('PROJECT', `ri.compass.main.folder.${randomUuid()}`, displayName, spaceRid, request.principal!.id, description);
      await tree().put(node);
      return projectWire(await place(tree(), node));
    },
  });

  app.get('/api/v2/filesystem/spaces', {
    config: { auth: { kind: 'bearer', scope: READ } },
    schema: { querystring: Paging },
    handler: async (request) => {
      const page = pageOf(await tree().children(undefined), request.query, 'spaces');
      return { ...page, data: page.data.map((node) => spaceWire({ node, ancestors: [] })) };
    },
  });

  app.get('/api/v2/filesystem/spaces/:spaceRid', {
    config: { auth: { kind: 'bearer', scope: READ } },
    schema: { params: Type.Object({ spaceRid: Type.String() }), querystring: Preview },
    handler: async (request) => {
      const node = await tree().get(request.params.spaceRid);
      if (!node || node.kind !== 'SPACE')
        throw notFound('SpaceNotFound', { spaceRid: request.params.spaceRid }).because(`no space has the rid ${request.params.spaceRid}`);
      return spaceWire({ node, ancestors: [] });
    },
  });
}
