// Versioned schema migrations, as TypeScript strings so that they ship inside the bundle (dist/*.js) with no
// files to copy. Applied in order at start, each in its own transaction, under an advisory lock held by one
// instance at a time: a second instance starting at once waits, then finds them applied. Never edit a
// migration that has shipped; add the next one.
import type pg from 'pg';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'initial',
    sql: `
      CREATE TABLE meta (key text PRIMARY KEY, value text NOT NULL);

      -- Seeded users have a username; automatic service principals have principal_for (their client id).
      CREATE TABLE users (
        id text PRIMARY KEY,
        seq bigserial NOT NULL,
        username text UNIQUE,
        principal_for text UNIQUE,
        service_for text,
        active boolean NOT NULL,
        record text NOT NULL
      );
      CREATE INDEX users_service_for ON users (service_for, seq) WHERE service_for IS NOT NULL;
      CREATE INDEX users_seeded_order ON users (seq) WHERE username IS NOT NULL;

      CREATE TABLE clients (client_id text PRIMARY KEY, seq bigserial NOT NULL, record text NOT NULL);

      CREATE TABLE access_tokens (
        token text PRIMARY KEY,
        grant_id text,
        expires_at bigint NOT NULL,
        record text NOT NULL
      );
      CREATE INDEX access_tokens_grant ON access_tokens (grant_id) WHERE grant_id IS NOT NULL;
      CREATE INDEX access_tokens_expiry ON access_tokens (expires_at);

      CREATE TABLE authorize_requests (id text PRIMARY KEY, expires_at bigint NOT NULL, record text NOT NULL);
      CREATE INDEX authorize_requests_expiry ON authorize_requests (expires_at);

      CREATE TABLE codes (code text PRIMARY KEY, expires_at bigint NOT NULL, consumed boolean NOT NULL DEFAULT false, record text NOT NULL);
      CREATE INDEX codes_expiry ON codes (expires_at);

      CREATE TABLE refresh_tokens (
        token text PRIMARY KEY,
        grant_id text NOT NULL,
        expires_at bigint NOT NULL,
        retired boolean NOT NULL DEFAULT false,
        record text NOT NULL
      );
      -- retired_seq: the order tokens were retired in; at the cap the one retired first is forgotten.
      CREATE SEQUENCE refresh_retired_seq;
      ALTER TABLE refresh_tokens ADD COLUMN retired_seq bigint;
      CREATE INDEX refresh_tokens_retired ON refresh_tokens (retired_seq) WHERE retired_seq IS NOT NULL;
      CREATE INDEX refresh_tokens_grant ON refresh_tokens (grant_id);
      CREATE INDEX refresh_tokens_expiry ON refresh_tokens (expires_at);

      CREATE TABLE revoked_grants (grant_id text PRIMARY KEY, expires_at bigint NOT NULL);
      CREATE INDEX revoked_grants_expiry ON revoked_grants (expires_at);

      CREATE TABLE enrollment (id int PRIMARY KEY CHECK (id = 1), record text NOT NULL);

      CREATE TABLE connections (rid text PRIMARY KEY, seq bigserial NOT NULL, record text NOT NULL);

      CREATE TABLE ontologies (rid text PRIMARY KEY, seq bigserial NOT NULL, api_name text NOT NULL UNIQUE, record text NOT NULL);

      CREATE TABLE runtimes (runtime_id text PRIMARY KEY, seq bigserial NOT NULL, module_auth_token text NOT NULL, schemas text NOT NULL DEFAULT '[]');

      CREATE TABLE deployed_apps (
        deployed_app_rid text NOT NULL,
        branch text NOT NULL,
        runtime_id text NOT NULL,
        record text NOT NULL,
        PRIMARY KEY (deployed_app_rid, branch)
      );
      CREATE INDEX deployed_apps_runtime ON deployed_apps (runtime_id);

      -- seq is the submission order (a queue's order); finish_seq the order jobs finished in (pruning's order).
      CREATE SEQUENCE job_finish_seq;
      CREATE TABLE jobs (
        job_id text PRIMARY KEY,
        seq bigserial NOT NULL,
        runtime_id text NOT NULL,
        state text NOT NULL,
        hand_outs int NOT NULL DEFAULT 0,
        submitted_at bigint NOT NULL,
        started_at bigint,
        finished_at bigint,
        finish_seq bigint,
        failure text,
        result bytea,
        result_bytes int NOT NULL DEFAULT 0,
        result_type text,
        record text NOT NULL
      );
      CREATE INDEX jobs_queue ON jobs (runtime_id, seq) WHERE state = 'queued';
      CREATE INDEX jobs_running ON jobs (runtime_id) WHERE state = 'inProgress';
      CREATE INDEX jobs_finished ON jobs (finish_seq) WHERE finish_seq IS NOT NULL;

      -- Principals made under a cap (open-mode clients), counted against it.
      ALTER TABLE users ADD COLUMN capped boolean NOT NULL DEFAULT false;

      -- Row counts of the capped tables, kept by statement-level triggers, so that a cap check is one row read
      -- (locked FOR UPDATE in the statement that inserts, so instances inserting at once cannot overshoot).
      -- result_bytes is kept by the job statements themselves. A reset sets every count to 0.
      CREATE TABLE counters (name text PRIMARY KEY, n bigint NOT NULL DEFAULT 0);
      INSERT INTO counters (name) VALUES ('access_tokens'), ('authorize_requests'), ('codes'), ('refresh_tokens'), ('revoked_grants'), ('result_bytes');
      CREATE FUNCTION count_rows() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          UPDATE counters SET n = n + (SELECT count(*) FROM new_rows) WHERE name = TG_TABLE_NAME;
        ELSE
          UPDATE counters SET n = n - (SELECT count(*) FROM old_rows) WHERE name = TG_TABLE_NAME;
        END IF;
        RETURN NULL;
      END $$;
      DO $$
      DECLARE t text;
      BEGIN
        FOREACH t IN ARRAY ARRAY['access_tokens', 'authorize_requests', 'codes', 'refresh_tokens', 'revoked_grants'] LOOP
          EXECUTE format('CREATE TRIGGER %1$s_counted_in AFTER INSERT ON %1$s REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_rows()', t);
          EXECUTE format('CREATE TRIGGER %1$s_counted_out AFTER DELETE ON %1$s REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_rows()', t);
        END LOOP;
      END $$;
    `,
  },
  {
    version: 2,
    name: 'ontology objects',
    sql: `
      -- key is String(primary key); seq keeps insertion order (list order), kept by a modify, new after a re-create.
      CREATE TABLE ontology_objects (
        ontology_rid text NOT NULL,
        object_type text NOT NULL,
        key text NOT NULL,
        seq bigserial NOT NULL,
        record text NOT NULL,
        PRIMARY KEY (ontology_rid, object_type, key)
      );
      CREATE INDEX ontology_objects_order ON ontology_objects (ontology_rid, object_type, seq);

      -- Many-to-many link pairs, looked up from either side.
      CREATE TABLE ontology_pairs (
        ontology_rid text NOT NULL,
        link_id text NOT NULL,
        a text NOT NULL,
        b text NOT NULL,
        PRIMARY KEY (ontology_rid, link_id, a, b)
      );
      CREATE INDEX ontology_pairs_b ON ontology_pairs (ontology_rid, link_id, b);
    `,
  },
  {
    version: 3,
    name: 'runtime last poll',
    sql: `
      -- When a module last polled, on any instance (clock ms): module liveness across instances.
      ALTER TABLE runtimes ADD COLUMN last_poll_at bigint;
    `,
  },
  {
    version: 4,
    name: 'insertion order of capped tables',
    sql: `
      -- At a cap the oldest goes first; rows issued in the same millisecond are told apart by insertion order,
      -- as in the memory store (not by their random keys).
      ALTER TABLE codes ADD COLUMN seq bigserial;
      ALTER TABLE authorize_requests ADD COLUMN seq bigserial;
      CREATE INDEX codes_order ON codes (expires_at, seq);
      CREATE INDEX authorize_requests_order ON authorize_requests (expires_at, seq);
    `,
  },
  {
    version: 5,
    name: 'lists for the dashboard and the state export',
    sql: `
      -- Issue order of access tokens and pairing order of many-to-many pairs (newest tokens first; pairs as
      -- the memory store lists them); a runtime's jobs newest first.
      ALTER TABLE access_tokens ADD COLUMN seq bigserial;
      CREATE INDEX access_tokens_order ON access_tokens (seq);
      ALTER TABLE ontology_pairs ADD COLUMN seq bigserial;
      CREATE INDEX jobs_by_runtime ON jobs (runtime_id, seq);
    `,
  },
  {
    version: 6,
    name: 'access tokens counted without an insert trigger',
    sql: `
      -- Every mint updated one counter row (a statement trigger, then a row lock held to commit): mints on all
      -- connections took turns on it, at about a third of a plain insert's rate. Now nothing is written to
      -- count a mint. The live count is bounded by the token's own sequence number minus an offset:
      --   live tokens <= seq of the newest token - access_tokens_offset
      -- A deleted token adds 1 to the offset (a statement trigger on DELETE only); an exact recount under a
      -- table lock re-bases it (access-token-cap.ts). The full_* rows remember the last recount that found the
      -- table full, so refusals at the cap do not recount until a token is deleted.
      DROP TRIGGER access_tokens_counted_in ON access_tokens;
      DROP TRIGGER access_tokens_counted_out ON access_tokens;
      DELETE FROM counters WHERE name = 'access_tokens';
      INSERT INTO counters (name, n)
        SELECT 'access_tokens_offset', (SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END FROM access_tokens_seq_seq) - (SELECT count(*) FROM access_tokens);
      INSERT INTO counters (name, n) VALUES ('access_tokens_full_offset', -1), ('access_tokens_full_count', 0);
      CREATE FUNCTION offset_access_tokens() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE gone bigint := (SELECT count(*) FROM old_rows);
      BEGIN
        IF gone > 0 THEN
          UPDATE counters SET n = n + gone WHERE name = 'access_tokens_offset';
        END IF;
        RETURN NULL;
      END $$;
      CREATE TRIGGER access_tokens_offset_out AFTER DELETE ON access_tokens REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION offset_access_tokens();
    `,
  },
  {
    version: 7,
    name: 'job leases held by instances',
    sql: `
      -- A handed-out job names the instance that handed it out; each instance renews its row while it runs.
      -- Any instance's sweeper puts back the jobs of an instance whose row lapsed (killed, docs/compute-module-leases.md).
      ALTER TABLE jobs ADD COLUMN holder text;
      CREATE INDEX jobs_held ON jobs (holder) WHERE state = 'inProgress';
      CREATE TABLE instances (instance_id text PRIMARY KEY, seen_at bigint NOT NULL);
    `,
  },
];

/** One key per schema, so that tests in separate schemas of one database do not wait for each other. */
export const lockKey = (schema: string) => `platform-emulator:${schema}`;

/** Applies the migrations this database lacks. Call on a connection that holds the advisory lock. */
export async function migrate(client: pg.ClientBase, schema: string): Promise<number[]> {
  await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  await client.query(
    `CREATE TABLE IF NOT EXISTS ${schema}.schema_migrations (version int PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
  );
  const done = new Set((await client.query<{ version: number }>(`SELECT version FROM ${schema}.schema_migrations`)).rows.map((r) => r.version));
  const applied: number[] = [];
  for (const migration of MIGRATIONS) {
    if (done.has(migration.version)) continue;
    await client.query('BEGIN');
    try {
      await client.query(`SET LOCAL search_path = ${schema}`);
      await client.query(migration.sql);
      await client.query(`INSERT INTO ${schema}.schema_migrations (version, name) VALUES ($1, $2)`, [migration.version, migration.name]);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
    applied.push(migration.version);
  }
  return applied;
}
