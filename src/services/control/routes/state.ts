// GET /_emulate/platform/state: the current state as a seed document (export-state.ts), YAML when the request
// accepts YAML (application/yaml, text/yaml, application/x-yaml) or asks `?format=yaml`, else JSON.
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Store } from '../../../store/store.js';
import { CONTROL_ROUTE } from '../../../http/route-config.js';
import { exportState, stateAsJson, stateAsYaml } from '../../../seed/export.js';
import type { ServiceModule } from '../../service-module.js';
import { seedCodecsOf } from '../../seed-codecs.js';

const wantsYaml = (accept: string | undefined): boolean => accept !== undefined && /\b(application|text)\/(x-)?yaml\b/i.test(accept);

export function stateRoutes(parent: FastifyInstance, deps: { store: Store; services: readonly ServiceModule[] }): void {
  const codecs = seedCodecsOf(deps.services);
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/_emulate/platform/state',
    {
      config: CONTROL_ROUTE,
      schema: {
        querystring: Type.Object(
          {
            format: Type.Optional(Type.Union([Type.Literal('yaml'), Type.Literal('json')])),
            secrets: Type.Optional(Type.Union([Type.Literal('include'), Type.Literal('omit')])),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => {
      const dropped: string[] = [];
      const doc = await exportState(deps.store, codecs, { dropped, secrets: request.query.secrets === 'include' });
      if (dropped.length)
        request.log.warn(
          { dropped: dropped.slice(0, 20), count: dropped.length },
          'state export left things out of the document (each line of `dropped` says what and why)',
        );
      const yaml = request.query.format === 'yaml' || (request.query.format === undefined && wantsYaml(request.headers.accept));
      reply.header('Cache-Control', 'no-store').header('Vary', 'Accept');
      return yaml ? reply.type('application/yaml; charset=utf-8').send(stateAsYaml(doc)) : reply.type('application/json; charset=utf-8').send(stateAsJson(doc));
    },
  );
}
