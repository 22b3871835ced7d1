// The datasets store part: its tables for both backends (docs/datasets.md).
import type { StorePart } from '../../store/parts.js';
import type { DatasetsRepo } from './repo.js';
import { MemoryDatasets } from './memory-repo.js';
import { PostgresDatasets } from './postgres-repo.js';

export const DATASETS: StorePart<DatasetsRepo> = {
  name: 'datasets',
  tables: ['dataset_schemas', 'dataset_files', 'dataset_transactions', 'dataset_branches', 'datasets'],
  migrations: [
    {
      version: 1,
      name: 'datasets',
      sql: `
        CREATE TABLE datasets (rid text PRIMARY KEY, seq bigserial NOT NULL, name text NOT NULL, parent_folder_rid text NOT NULL);
        CREATE TABLE dataset_branches (
          dataset_rid text NOT NULL, name text NOT NULL, seq bigserial NOT NULL, head text,
          PRIMARY KEY (dataset_rid, name)
        );
        CREATE TABLE dataset_transactions (
          rid text PRIMARY KEY, seq bigserial NOT NULL, dataset_rid text NOT NULL, branch text NOT NULL,
          type text NOT NULL, status text NOT NULL, created_time text NOT NULL, closed_time text, parent text
        );
        CREATE INDEX dataset_transactions_dataset ON dataset_transactions (dataset_rid, seq);
        -- At most one open transaction per branch, whichever instance opens it.
        CREATE UNIQUE INDEX dataset_transactions_one_open ON dataset_transactions (dataset_rid, branch) WHERE status = 'OPEN';
        CREATE TABLE dataset_files (
          transaction_rid text NOT NULL, path text NOT NULL, blob_id text, size bigint NOT NULL, updated_time text NOT NULL,
          PRIMARY KEY (transaction_rid, path)
        );
        CREATE TABLE dataset_schemas (
          seq bigserial PRIMARY KEY, dataset_rid text NOT NULL, branch text NOT NULL, version_id text NOT NULL,
          end_transaction_rid text NOT NULL, schema text NOT NULL, dataframe_reader text
        );
        CREATE INDEX dataset_schemas_dataset ON dataset_schemas (dataset_rid, seq);
      `,
    },
    {
      version: 2,
      name: 'dataset transactions not aborted',
      // Views and histories skip aborted transactions: an index of the others keeps them fast however many there are.
      sql: `CREATE INDEX dataset_transactions_live ON dataset_transactions (dataset_rid, seq) WHERE status <> 'ABORTED';`,
    },
    {
      version: 3,
      name: 'one-call transactions name their instance',
      // The instance holding a one-call upload's (or delete's) transaction; null for one a client opened. An open
      // aborts such a transaction once its instance's lease has lapsed (instances, core migration 7).
      sql: `ALTER TABLE dataset_transactions ADD COLUMN holder text;`,
    },
  ],
  memory: () => new MemoryDatasets(),
  postgres: (db) => new PostgresDatasets(db),
};
