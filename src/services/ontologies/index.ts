// The ontologies service module: metadata, objects, links, object sets, queries and actions (docs/contracts.md §5, §9).
import type { ServiceModule } from '../service-module.js';
import { ONTOLOGIES, ONTOLOGY_OBJECTS } from '../../store/core-parts.js';
import { ontologyRoutes } from './routes.js';
import { ontologiesBackstage } from './backstage/index.js';
import { ontologiesSeed } from './seed.js';
import { subscriptionRoutes } from './subscriptions/routes.js';
import { fileRoutes } from './attachments/routes.js';
import { ONTOLOGY_FILES } from './attachments/part.js';
import { BLOBS } from '../../blobs/index.js';

export const ontologiesService: ServiceModule = {
  name: 'ontologies',
  scopes: ['api:ontologies-read', 'api:ontologies-write'],
  policy: [
    { path: '/api/v2/ontologies', cors: true, topics: ['ontologies'] },
    { path: '/_emulate/platform/ontologies', topics: ['ontologies'] },
    { path: '/api/v2/ontologySubscriptions', cors: true, topics: [] },
    { path: '/api/v2/mediasets', cors: true, topics: ['ontologies'] },
  ],
  store: [ONTOLOGIES, ONTOLOGY_OBJECTS, BLOBS, ONTOLOGY_FILES],
  seed: [ontologiesSeed],
  routes: async (app, deps) => {
    ontologyRoutes(app, deps);
    fileRoutes(app, deps);
    await subscriptionRoutes(app, deps);
  },
  backstage: { routes: ontologiesBackstage },
};
