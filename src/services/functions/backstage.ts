// The functions service's control side (docs/functions.md, "Dashboard" and "Module environment"): the Function
// calls view (each call, the job it became, its duration and outcome) and the module environment route that
// run-module asks. Loopback or the control token, like every control route.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Backstage, ServiceDeps } from '../service-module.js';
import { CONTROL_ROUTE } from '../../http/route-config.js';
import { ViewListQuery, searchOf, viewPage } from '../view-pages.js';
import { callLogOf } from './call-log.js';
import { moduleEnvironmentBackstage } from './environment/backstage.js';

export const FUNCTION_CALLS_ROUTE = '/_emulate/platform/functions/calls';

function callRoutes(parent: FastifyInstance, { store }: ServiceDeps): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const log = callLogOf(store);
  app.onReset(() => log.clear());
  app.get(FUNCTION_CALLS_ROUTE, { config: CONTROL_ROUTE, schema: { querystring: ViewListQuery } }, async (request) => {
    const q = searchOf(request.query);
    const rows = log
      .list()
      .filter((c) => q === '' || `${c.function} ${c.jobId} ${c.runtimeId} ${c.outcome} ${c.via}`.toLowerCase().includes(q))
      .map((c) => ({ ...c, at: new Date(c.at).toISOString(), duration: `${c.durationMs} ms` }));
    return viewPage(rows, request.query, `calls?q=${q}`);
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
