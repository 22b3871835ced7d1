// The streams service's control side (docs/streams.md, "Dashboard"): each stream with its offsets and newest
// record, and each pipeline app with its resources' offsets side by side, refreshed as records arrive; plus
// pipeline mode's session route. Loopback or the control token, like every control route.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Backstage, ServiceDeps } from '../service-module.js';
import { CONTROL_ROUTE } from '../../http/route-config.js';
import { excerpt } from '../../errors.js';
import { ViewListQuery, searchOf, viewPage } from '../view-pages.js';
import { DATASETS } from '../datasets/part.js';
import { STREAMS } from './part.js';
import { PIPELINES } from './pipeline/part.js';
import { pipelineBackstage } from './pipeline/backstage.js';

const LATEST_CHARS = 160;

function listRoutes(parent: FastifyInstance, { store }: ServiceDeps): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const streams = store.part(STREAMS);
  /** The view's bounds and newest record, as the dashboard shows them. */
  const glance = async (datasetRid: string, branch: string) => {
    const s = await streams.stream(datasetRid, branch);
    const bounds = s && (await streams.bounds(s.viewRid));
    if (!s || !bounds) return { first: '', end: '', latest: '' };
    const last = bounds.end > bounds.first ? (await streams.read(s.viewRid, bounds.end - 1, 1))?.records[0] : undefined;
    return { first: bounds.first, end: bounds.end, latest: last ? excerpt(last.value, LATEST_CHARS) : '' };
  };

  app.get('/_emulate/platform/streams', { config: CONTROL_ROUTE, schema: { querystring: ViewListQuery } }, async (request) => {
    const q = searchOf(request.query);
    const rows = [];
    for (const s of await streams.streams()) {
      const name = (await store.part(DATASETS).dataset(s.datasetRid))?.name ?? '';
      if (q !== '' && !`${name} ${s.datasetRid}`.toLowerCase().includes(q)) continue;
      rows.push({ name, datasetRid: s.datasetRid, branch: s.branch, viewRid: s.viewRid, ...(await glance(s.datasetRid, s.branch)) });
    }
    return viewPage(rows, request.query, `streams?q=${q}`);
  });

  app.get('/_emulate/platform/pipelines', { config: CONTROL_ROUTE, schema: { querystring: ViewListQuery } }, async (request) => {
    const q = searchOf(request.query);
    const rows = [];
    for (const a of await store.part(PIPELINES).list()) {
      if (q !== '' && !a.deployedAppRid.toLowerCase().includes(q)) continue;
      const sides = [];
      for (const [alias, r] of Object.entries(a.resources)) {
        const g = await glance(r.rid, r.branch);
        sides.push(`${alias}: ${g.end === '' ? 'no stream' : `${Number(g.end) - Number(g.first)} records, end ${g.end}`}`);
      }
      rows.push({ deployedAppRid: a.deployedAppRid, branch: a.branch, resources: sides.join(' | ') });
    }
    return viewPage(rows, request.query, `pipelines?q=${q}`);
  });
}

export const streamsBackstage: Backstage = {
  routes: async (app, deps) => {
    listRoutes(app, deps);
    pipelineBackstage(app, deps);
  },
  views: [
    {
      title: 'Streams',
      listPath: '/_emulate/platform/streams',
      columns: [
        { field: 'name', heading: 'Stream' },
        { field: 'branch', heading: 'Branch' },
        { field: 'first', heading: 'First offset' },
        { field: 'end', heading: 'End offset' },
        { field: 'latest', heading: 'Newest record' },
      ],
      topic: 'streams',
    },
    {
      title: 'Pipelines',
      listPath: '/_emulate/platform/pipelines',
      columns: [
        { field: 'deployedAppRid', heading: 'Deployed app' },
        { field: 'branch', heading: 'Branch' },
        { field: 'resources', heading: 'Inputs and outputs' },
      ],
      topic: 'streams',
    },
  ],
};
