// Admin identity endpoints (SPEC §4.2, docs/contracts.md §3).
// The directory's routes (users, groups, markings) live in routes/ (docs/directory.md).
import type { FastifyInstance } from 'fastify';
import type { Store } from '../../store/store.js';
import type { Clock } from '../../clock.js';
import type { Seed } from '../../seed/schema.js';
import { enrollmentWire, meWire, userWire, userWireJson } from './shapes.js';
import { PreviewQuery } from '../../http/preview.js';
import { useJsonBodies } from '../../http/body-parsers.js';
import { DIRECTORY } from './directory/part.js';
import { groupsOf } from './principals.js';
import { userRoutes } from './routes/users.js';
import { groupRoutes } from './routes/groups.js';
import { markingRoutes } from './routes/markings.js';

const GET_CURRENT_PATH = '/api/v2/admin/users/getCurrent';

export function adminRoutes(app: FastifyInstance, deps: { store: Store; clock: Clock; seed: Pick<Seed, 'limits'> }): void {
  // What every client calls first and most: its plain success is answered in front of the framework
  // (src/http/fast-lane.ts); this route answers everything else.
  app.addFastLane({ kind: 'bearer-read', path: GET_CURRENT_PATH, scope: 'api:admin-read', answerJson: userWireJson });
  app.get(GET_CURRENT_PATH, {
    config: { auth: { kind: 'bearer', scope: 'api:admin-read', denied: { errorName: 'GetCurrentUserPermissionDenied', parameters: () => ({}) } } },
    schema: { querystring: PreviewQuery },
    // Synchronous: a hot path (docs/architecture.md, Hot paths); an async handler costs a promise per request.
    handler: (request, reply) => reply.send(userWire(request.principal!)),
  });

  app.get('/api/v2/admin/enrollments/getCurrent', {
    config: { auth: { kind: 'bearer', scope: 'api:admin-read', denied: { errorName: 'GetCurrentEnrollmentPermissionDenied', parameters: () => ({}) } } },
    schema: { querystring: PreviewQuery },
    handler: async () => enrollmentWire(await deps.store.enrollment.get()),
  });

  app.get('/idp/api/me', {
    config: { auth: { kind: 'bearer' } },
    handler: async (request) => {
      const me = meWire(request.principal!);
      // The user's groups, through nested ones too (docs/contracts.md §3): [] for a user in none.
      const directory = deps.store.part(DIRECTORY);
      const groups = [];
      for (const id of await groupsOf(directory, me.id, true)) {
        const group = await directory.group(id);
        if (group) groups.push({ id: group.id, name: group.name });
      }
      return { ...me, groups };
    },
  });

  app.register(async (scope) => {
    // The platform's clients send the JSON content type on bodiless calls (Groups.deleteGroup, revokeAllTokens).
    useJsonBodies(scope, { emptyIsNoBody: true });
    userRoutes(scope, deps);
    groupRoutes(scope, deps);
    markingRoutes(scope, deps);
  });
}
