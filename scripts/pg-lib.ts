// Shared by the PostgreSQL test pass, its helpers and the bench: where the local test cluster answers
// (scripts/pg-cluster.sh), whether a server answers, and throwaway schemas.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** What `scripts/pg-cluster.sh start` prints with its defaults. */
export const LOCAL_CLUSTER_URL = `postgres://emulator:emulator@127.0.0.1:${/^\d+$/.test(process.env.PG_PORT ?? '') ? process.env.PG_PORT : '54329'}/emulator`;

/** A URL of `base` naming a fresh, not yet existing schema whose name starts with `prefix`. */
export function freshSchemaUrl(base: string, prefix: string): string {
  const url = new URL(base);
  url.searchParams.set('schema', `${prefix}${randomBytes(6).toString('hex')}`);
  // A test machine under load can take more than the default 2 s to start a server process for a connection.
  if (!url.searchParams.has('connect_timeout')) url.searchParams.set('connect_timeout', '15');
  return url.toString();
}

/** True when a server answers at `url` within 5 s. */
export async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Drops every schema whose name starts with `prefix`. */
export async function dropSchemas(url: string, prefix: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  await client.connect();
  try {
    const { rows } = await client.query<{ nspname: string }>('SELECT nspname FROM pg_namespace WHERE starts_with(nspname, $1)', [prefix]);
    for (const { nspname } of rows) await client.query(`DROP SCHEMA IF EXISTS ${nspname} CASCADE`);
  } finally {
    await client.end();
  }
}

/** The URL without its credentials, for messages. */
export const withoutCredentials = (url: string): string => url.replace(/\/\/[^@/]*@/, '//');
