// Admin identity endpoints (SPEC §4.2, CONTRACTS §3).
// The directory's routes (users, groups, markings) live in routes/ (docs/directory.md).
import type { FastifyInstance } from 'fastify';
import type { Store } from '../../store/store.js';
import { enrollmentWire, meWire, userWire } from './shapes.js';
import { PreviewQuery } from '../../http/preview.js';
import { useJsonBodies } from '../../http/body-parsers.js';
import { userRoutes } from './routes/users.js';
import { groupRoutes } from './routes/groups.js';
import { markingRoutes } from './routes/markings.js';

export function adminRoutes(app: FastifyInstance, deps: { store: Store }): void {
  app.get('/api/v2/admin/users/getCurrent', {
    config: { auth: { kind: 'bearer', scope: 'api:admin-read', denied: { errorName: 'GetCurrentUserPermissionDenied', parameters: () => ({}) } } },
    schema: { querystring: PreviewQuery },
    handler: async (request) => userWire(request.principal!),
  });

  app.get('/api/v2/admin/enrollments/getCurrent', {
    config: { auth: { kind: 'bearer', scope: 'api:admin-read', denied: { errorName: 'GetCurrentEnrollmentPermissionDenied', parameters: () => ({}) } } },
    schema: { querystring: PreviewQuery },
    handler: async () => enrollmentWire(await deps.store.enrollment.get()),
  });

  app.get('/idp/api/me', {
    config: { auth: { kind: 'bearer' } },
    handler: async (request) => meWire(request.principal!),
  });

  app.register(async (scope) => {
    // The platform's clients send the JSON content type on bodiless calls (Groups.deleteGroup, revokeAllTokens).
    useJsonBodies(scope, { emptyIsNoBody: true });
    userRoutes(scope, deps);
    groupRoutes(scope, deps);
    markingRoutes(scope, deps);
  });
}
