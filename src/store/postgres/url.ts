// The store URL, read without loading the driver (the CLI names the store on start-up even for memory).

/**
 * Splits our own parameters from what the driver understands: `schema`, and `connect_timeout` (seconds, as
 * libpq spells it), which the driver would otherwise ignore.
 */
export function parseStoreUrl(url: string): { connectionString: string; schema: string; connectTimeoutMs?: number } {
  const parsed = new URL(url);
  const schema = parsed.searchParams.get('schema') ?? 'public';
  const connectTimeout = parsed.searchParams.get('connect_timeout');
  parsed.searchParams.delete('schema');
  parsed.searchParams.delete('connect_timeout');
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new RangeError(`store: schema "${schema.slice(0, 64)}" must be a lower-case SQL identifier`);
  const seconds = connectTimeout === null ? undefined : Number(connectTimeout);
  if (seconds !== undefined && !(seconds > 0 && seconds <= 600)) throw new RangeError('store: connect_timeout must be a number of seconds (up to 600)');
  return { connectionString: parsed.toString(), schema, connectTimeoutMs: seconds === undefined ? undefined : seconds * 1000 };
}

/** The address without credentials, for messages. */
export function describeStoreUrl(url: string): string {
  try {
    const { connectionString, schema } = parseStoreUrl(url);
    const u = new URL(connectionString);
    return `postgres://${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname}${schema === 'public' ? '' : ` (schema ${schema})`}`;
  } catch {
    return 'the configured PostgreSQL address';
  }
}
