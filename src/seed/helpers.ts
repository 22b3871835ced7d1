// Small helpers the services' seed codecs share: merging an imported list, leaving unset keys out of an export,
// quoting a written value in a problem line.

// `--import` merge of a list: the imported entries replace the config's entries with the same key, and come first.
export function byKey<T>(base: readonly T[], imported: readonly T[], key: (item: T) => string): T[] {
  const replaced = new Set(imported.map(key));
  return [...imported, ...base.filter((item) => !replaced.has(key(item)))];
}

/** Drops the keys whose value is undefined, so that the exported YAML and JSON show only what is set. */
export function defined<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** Quotes a seed value, cut short: a problem line stays readable whatever was written. */
export const quote = (value: string): string => JSON.stringify(value.length > 64 ? `${value.slice(0, 64)}…` : value);
