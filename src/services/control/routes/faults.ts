// /_emulate/platform/faults: arm, list and clear one-shot faults (src/http/faults.ts applies them).
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { CONTROL_ROUTE } from '../../../http/route-config.js';
import { invalidArgument, notFound } from '../../../errors.js';

const FaultBody = Type.Object(
  {
    method: Type.String({ pattern: '^([A-Za-z]{1,16}|\\*)$', default: '*' }),
    path: Type.String({ minLength: 1, maxLength: 2048, pattern: '^/' }),
    status: Type.Optional(Type.Integer({ minimum: 200, maximum: 599 })),
    body: Type.Optional(Type.Unknown()),
    headers: Type.Optional(Type.Record(Type.String({ pattern: '^[A-Za-z0-9-]{1,64}$' }), Type.String({ maxLength: 1024 }))),
    delayMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 600_000 })),
    times: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 }),
  },
  { additionalProperties: false },
);

export function faultRoutes(parent: FastifyInstance): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();

  app.post('/_emulate/platform/faults', { config: CONTROL_ROUTE, schema: { body: FaultBody } }, async (request) => {
    const spec = request.body;
    if (spec.status === undefined && spec.delayMs === undefined) {
      throw invalidArgument('InvalidArgument', { field: 'status' }, 'A fault needs a status, a delayMs, or both.').because(
        'The fault armed neither a status nor a delayMs; expected at least one of them.',
      );
    }
    return app.faults.arm({ ...spec, method: spec.method.toUpperCase() });
  });

  app.get('/_emulate/platform/faults', { config: CONTROL_ROUTE }, async () => ({ faults: app.faults.list() }));

  app.delete('/_emulate/platform/faults', { config: CONTROL_ROUTE }, async () => ({ cleared: app.faults.clear() }));

  app.delete(
    '/_emulate/platform/faults/:id',
    { config: CONTROL_ROUTE, schema: { params: Type.Object({ id: Type.String({ pattern: '^[0-9]{1,9}$' }) }) } },
    async (request) => {
      if (app.faults.clear(Number(request.params.id)) === 0) throw notFound('FaultNotFound', { id: request.params.id });
      return { cleared: 1 };
    },
  );
}
