// The streams service's cap under `platform.limits` (docs/streams.md), declared in its seed codec so the loader
// validates it with the rest of the document.
import { Type } from '@sinclair/typebox';
import type { Seed } from '../../seed/schema.js';
import { DEFAULT_MAX_STREAM_RECORDS } from './operations.js';

export const STREAM_LIMIT_KEYS = {
  /** The most records a stream's view keeps, oldest dropped first; default 1,000,000. */
  max_stream_records: Type.Optional(Type.Integer({ minimum: 1 })),
};

/** The most records a stream's view keeps. */
export const maxStreamRecords = (seed: Pick<Seed, 'limits'>): number => seed.limits.max_stream_records ?? DEFAULT_MAX_STREAM_RECORDS;
