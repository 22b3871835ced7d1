// The datasets service module (docs/datasets.md): files, transactions, branches, schemas and table reads on
// the v2 routes and the v1 subset, over the byte store (src/blobs).
// Known deviations from the real platform:
// - A branch created without a transaction starts at the default branch's head (the request names no parent).
// - Files of a view are read as tables by their extension (.csv with a header row, .parquet); others are skipped.
// - DECIMAL columns are served as their exact text (Arrow Utf8); BINARY, MAP and STRUCT columns are refused.
// - ReadTableError answers 400 (the SDKs type it INTERNAL): the caller's data is wrong, not the service.
// - A file that fails to parse after the first batch was sent cuts the stream instead of answering an error.
// - A whole-table CSV read answers a fitting file's quote-free text as written (`1.50`, `...00Z`), other reads
//   as the service writes values (`1.5`, `...00.000Z`); the same values either way.
// - No views, jobs, builds, schedules, health checks or schema deletion; no folder checks on parentFolderRid.
// - The state export inlines files up to 64 KiB; larger ones go beside an export file, and over HTTP are dropped.
import type { ServiceModule } from '../service-module.js';
import { BLOBS } from '../../blobs/index.js';
import { DATASETS } from './part.js';
import { datasetsRoutes } from './routes/index.js';
import { datasetsSeedCodec } from './seed.js';
import { READ, WRITE } from './routes/common.js';
import { datasetResources } from './resources.js';
import { datasetsBackstage } from './backstage.js';

export const datasetsService: ServiceModule = {
  name: 'datasets',
  scopes: [READ, WRITE],
  policy: [
    { path: '/api/v2/datasets', topics: ['datasets'] },
    { path: '/api/v1/datasets', topics: ['datasets'] },
  ],
  store: [BLOBS, DATASETS],
  seed: [datasetsSeedCodec],
  routes: datasetsRoutes,
  resources: datasetResources,
  backstage: datasetsBackstage,
};
