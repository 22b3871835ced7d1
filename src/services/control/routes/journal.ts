// GET /_emulate/platform/journal: what the service did and why, newest first (docs/contracts.md §7). DELETE clears.
// Reading it is not journaled (src/http/journal/hook.ts), so a reader polling it does not fill it.
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { CONTROL_ROUTE } from '../../../http/route-config.js';

const Query = Type.Object(
  {
    limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,7}$' })),
    method: Type.Optional(Type.String({ pattern: '^[A-Za-z]{1,16}$' })),
    status: Type.Optional(Type.String({ pattern: '^([1-5][0-9][0-9]|[1-5]xx)$' })),
    path: Type.Optional(Type.String({ maxLength: 2048 })),
    refusals: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
    clientLeft: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
  },
  { additionalProperties: false },
);

export function journalRoutes(parent: FastifyInstance): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/_emulate/platform/journal', { config: CONTROL_ROUTE, schema: { querystring: Query } }, async (request) => {
    const q = request.query;
    const entries = app.journal.list({
      limit: q.limit === undefined ? undefined : Number(q.limit),
      method: q.method,
      status: q.status,
      path: q.path,
      refusals: q.refusals === 'true',
      clientLeft: q.clientLeft === undefined ? undefined : q.clientLeft === 'true',
    });
    return { entries };
  });

  app.delete('/_emulate/platform/journal', { config: CONTROL_ROUTE }, async () => {
    app.journal.clear();
    return { status: 'ok' };
  });
}
