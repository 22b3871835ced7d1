// The ontologies service module: metadata, objects, links, object sets, queries and actions (docs/contracts.md §5, §9).
import type { ServiceModule } from '../service-module.js';
import { ONTOLOGIES, ONTOLOGY_OBJECTS } from '../../store/core-parts.js';
import { ontologyRoutes } from './routes.js';
import { ontologiesBackstage } from './backstage/index.js';
import { OBJECT_VIEWS } from './backstage/object-views.js';
import { ontologiesSeed } from './seed.js';
import { subscriptionRoutes, SUBSCRIPTIONS_VIEW } from './subscriptions/routes.js';
import { fileRoutes } from './attachments/routes.js';
import { interfaceRoutes } from './interfaces/routes.js';
import { ONTOLOGY_FILES } from './attachments/part.js';

export const ontologiesService: ServiceModule = {
  name: 'ontologies',
  scopes: ['api:ontologies-read', 'api:ontologies-write'],
  policy: [
    { path: '/api/v2/ontologies', cors: true, topics: ['ontologies'] },
    { path: '/_emulate/platform/ontologies', topics: ['ontologies'] },
    { path: '/api/v2/ontologySubscriptions', cors: true, topics: [] },
    { path: '/api/v2/mediasets', cors: true, topics: ['ontologies'] },
  ],
  // File bytes go to the byte store (BLOBS), which the datasets service lists among its parts.
  store: [ONTOLOGIES, ONTOLOGY_OBJECTS, ONTOLOGY_FILES],
  seed: [ontologiesSeed],
  routes: async (app, deps) => {
    ontologyRoutes(app, deps);
    fileRoutes(app, deps);
    interfaceRoutes(app, deps);
    await subscriptionRoutes(app, deps);
  },
  backstage: {
    routes: ontologiesBackstage,
    panels: [{ id: 'ontologies', title: 'Ontologies', script: 'ontologies-panel.js', topics: ['ontologies'] }],
    views: [
      ...OBJECT_VIEWS,
      {
        title: 'Subscriptions',
        listPath: SUBSCRIPTIONS_VIEW,
        columns: [
          { field: 'user', heading: 'User' },
          { field: 'transport', heading: 'Transport' },
          { field: 'objectSet', heading: 'Object set' },
          { field: 'members', heading: 'Objects' },
          { field: 'messagesSent', heading: 'Messages sent' },
          { field: 'refreshes', heading: 'Refreshes' },
        ],
        topic: 'ontologies',
      },
    ],
  },
};
