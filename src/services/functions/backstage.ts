// The functions service's control side (docs/functions.md, "Dashboard" and "Module environment"): the Function
// calls view (each call, the job it became, its duration and outcome) and the module environment route that
// run-module asks. Loopback or the control token, like every control route.
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Backstage, ServiceDeps } from '../service-module.js';
import { CONTROL_ROUTE } from '../../http/route-config.js';
import { pageOf } from '../admin/paging.js';
import { callLogOf } from './call-log.js';
import { moduleEnvironmentBackstage } from './environment/backstage.js';

export const FUNCTION_CALLS_ROUTE = '/_emulate/platform/functions/calls';
const ListQuery = Type.Object({ q: Type.Optional(Type.String()), pageToken: Type.Optional(Type.String()), pageSize: Type.Optional(Type.String()) });

function callRoutes(parent: FastifyInstance, { store }: ServiceDeps): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const log = callLogOf(store);
  app.onReset(() => log.clear());
  app.get(FUNCTION_CALLS_ROUTE, { config: CONTROL_ROUTE, schema: { querystring: ListQuery } }, async (request) => {
    const q = (request.query.q ?? '').toLowerCase();
    const rows = log
      .list()
      .filter((c) => q === '' || `${c.function} ${c.jobId} ${c.runtimeId} ${c.outcome} ${c.via}`.toLowerCase().includes(q))
      .map((c) => ({ ...c, at: new Date(c.at).toISOString(), duration: `${c.durationMs} ms` }));
    const page = pageOf(
      rows,
      { pageSize: request.query.pageSize ?? '100', ...(request.query.pageToken ? { pageToken: request.query.pageToken } : {}) },
      `calls?q=${q}`,
    );
    return { items: page.data, ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}) };
  });
}

export const functionsBackstage: Backstage = {
  routes: async (app, deps) => {
    callRoutes(app, deps);
    moduleEnvironmentBackstage(app, deps);
  },
  views: [
    {
      title: 'Function calls',
      listPath: FUNCTION_CALLS_ROUTE,
      columns: [
        { field: 'at', heading: 'Started' },
        { field: 'function', heading: 'Function' },
        { field: 'via', heading: 'Via' },
        { field: 'jobId', heading: 'Job' },
        { field: 'jobState', heading: 'Job state' },
        { field: 'duration', heading: 'Duration' },
        { field: 'outcome', heading: 'Outcome' },
      ],
      topic: 'ontologies',
    },
  ],
};
