// The filesystem's public routes: resources, folders, projects and spaces of one tree (docs/directory.md).
import type { FastifyInstance } from 'fastify';
import type { ServiceDeps } from '../service-module.js';
import { resourceRoutes } from './routes/resources.js';
import { folderRoutes } from './routes/folders.js';

export function filesystemRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  resourceRoutes(app, deps);
  folderRoutes(app, deps);
}
