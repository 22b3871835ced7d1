// The store URL, read without loading the driver (the CLI names the store on start-up even for memory).

/** Splits our own `schema` query parameter from what libpq understands. */
export function parseStoreUrl(url: string): { connectionString: string; schema: string } {
  const parsed = new URL(url);
  const schema = parsed.searchParams.get('schema') ?? 'public';
  parsed.searchParams.delete('schema');
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new RangeError(`store: schema "${schema.slice(0, 64)}" must be a lower-case SQL identifier`);
  return { connectionString: parsed.toString(), schema };
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
