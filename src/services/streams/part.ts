// The streams store part: its tables for both backends (docs/streams.md).
import type { StorePart } from '../../store/parts.js';
import type { StreamsRepo } from './repo.js';
import { MemoryStreams } from './memory-repo.js';
import { PostgresStreams } from './postgres-repo.js';

export const STREAMS: StorePart<StreamsRepo> = {
  name: 'streams',
  tables: ['stream_records', 'stream_views', 'streams'],
  migrations: [
    {
      version: 1,
      name: 'streams',
      sql: `
        CREATE TABLE streams (
          dataset_rid text NOT NULL, branch text NOT NULL, seq bigserial NOT NULL, view_rid text NOT NULL UNIQUE,
          schema text NOT NULL, partitions_count integer NOT NULL, stream_type text NOT NULL, compressed boolean NOT NULL,
          PRIMARY KEY (dataset_rid, branch)
        );
        CREATE TABLE stream_views (view_rid text PRIMARY KEY, first_offset bigint NOT NULL, end_offset bigint NOT NULL);
        CREATE TABLE stream_records (view_rid text NOT NULL, record_offset bigint NOT NULL, value text NOT NULL, PRIMARY KEY (view_rid, record_offset));
      `,
    },
  ],
  memory: () => new MemoryStreams(),
  postgres: (db) => new PostgresStreams(db),
};
