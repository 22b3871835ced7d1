// The filesystem's public routes: resources, folders, projects and spaces of one tree (docs/directory.md).
import type { FastifyInstance } from 'fastify';
import type { ServiceDeps } from '../service-module.js';
import { useJsonBodies } from '../../http/body-parsers.js';
import { resourceRoutes } from './routes/resources.js';
import { folderRoutes } from './routes/folders.js';

export function filesystemRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  app.register(async (scope) => {
    // The platform's clients send the JSON content type on bodiless calls (Resources.deleteResource, restore).
    useJsonBodies(scope, { emptyIsNoBody: true });
    resourceRoutes(scope, deps);
    folderRoutes(scope, deps);
  });
}
