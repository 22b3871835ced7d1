// The streams service module (docs/streams.md): streaming datasets, their records at dense offsets, the
// high-scale routes under /api and /stream-proxy/api, the stream proxy's older routes, and pipeline mode's
// declared resources and build tokens. A stream is a dataset of the datasets service.
// Known deviations from the real platform:
// - Every record goes to partition "0"; other partitions exist (partitionsCount) but stay empty.
// - Reads do not wait: getRecords and the legacy `records` answer at once with what exists (readers poll).
// - A view keeps at most limits.max_stream_records records, oldest dropped first; the platform keeps more.
// - Only the current view can be read or written; a reset forgets the old view and its records.
// - No subscribers, change data capture semantics, compression or stream types beyond recording the settings.
// - A read past the end offset is 400 InvalidParameterValue (the platform's answer is not documented).
// - The legacy `records` route takes our own optional `startOffset` and `limit` (the platform's takes none).
// - Binary records are accepted only on a stream whose schema is one binary field, and read back as base64.
import type { ServiceModule } from '../service-module.js';
import { STREAMS } from './part.js';
import { PIPELINES } from './pipeline/part.js';
import { streamsRoutes } from './routes/index.js';
import { streamsSeedCodec } from './seed.js';
import { pipelinesCodec } from './pipeline/seed.js';
import { streamsBackstage } from './backstage.js';
import { READ, WRITE } from './routes/common.js';
import { registerTableSource } from '../datasets/table/sources.js';
import { streamTableSource } from './table-source.js';

// readTable on a stream's dataset answers its records.
registerTableSource(streamTableSource);

export const streamsService: ServiceModule = {
  name: 'streams',
  scopes: [READ, WRITE],
  policy: [
    { path: '/api/v2/streams/', topics: ['streams'] },
    { path: '/api/v2/highScale/', topics: ['streams'] },
    { path: '/stream-proxy/', topics: ['streams'] },
  ],
  store: [STREAMS, PIPELINES],
  seed: [streamsSeedCodec, pipelinesCodec],
  routes: streamsRoutes,
  backstage: streamsBackstage,
};
