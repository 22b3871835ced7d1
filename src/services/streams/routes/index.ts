// Every streams route (docs/streams.md).
import type { FastifyInstance } from 'fastify';
import type { ServiceDeps } from '../../service-module.js';
import { useJsonBodies } from '../../../http/body-parsers.js';
import { Streams } from '../operations.js';
import { publicRoutes } from './public.js';
import { highScaleRoutes } from './high-scale.js';
import { legacyRoutes } from './legacy.js';
import { buildTokenGuard } from './build-token-guard.js';
import { maxStreamRecords } from '../caps.js';

export async function streamsRoutes(parent: FastifyInstance, deps: ServiceDeps): Promise<void> {
  const streams = new Streams(deps.store, deps.clock, maxStreamRecords(deps.seed));
  // On the root: the build-token rule covers every service's routes (datasets too), not only these.
  parent.addHook('preHandler', buildTokenGuard(deps.store));
  await parent.register(async (app) => {
    // The TypeScript SDK sends `Content-Type: application/json` with no body on reset.
    useJsonBodies(app, { emptyIsNoBody: true });
    // Binary records arrive as application/octet-stream: kept as bytes.
    app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    publicRoutes(app, streams);
    highScaleRoutes(app, streams, '/api');
    highScaleRoutes(app, streams, '/stream-proxy/api');
    legacyRoutes(app, streams);
  });
}
