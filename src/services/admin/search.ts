// The search body of Users.search and Groups.search: `{where: {type: "queryString", value}, pageSize?,
// pageToken?}`. Anything else is refused with a 400 that names the unknown clause (docs/directory.md, "Search").
import { invalidArgument } from '../../errors.js';

export interface SearchBody {
  value: string;
  pageSize?: number;
  pageToken?: string;
}

const BODY_KEYS = new Set(['where', 'pageSize', 'pageToken']);
const WHERE_KEYS = new Set(['type', 'value']);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const unknownClause = (clause: string, why: string) => invalidArgument('InvalidSearchFilter', { clause }, `Unknown search clause: ${clause}`).because(why);

export function parseSearch(body: unknown): SearchBody {
  if (!isRecord(body)) throw unknownClause('(body)', 'the search body must be a JSON object {where, pageSize?, pageToken?}');
  for (const key of Object.keys(body))
    if (!BODY_KEYS.has(key)) throw unknownClause(key, `"${key}" is not a search field; expected where, pageSize and pageToken`);
  const where = body.where;
  if (!isRecord(where)) throw unknownClause('where', 'where must be an object {type: "queryString", value}');
  for (const key of Object.keys(where))
    if (!WHERE_KEYS.has(key)) throw unknownClause(`where.${key}`, `"where.${key}" is not a filter field; expected type and value`);
  if (where.type !== 'queryString')
    throw unknownClause(`where.type=${String(where.type)}`, `the only filter type is "queryString"; got ${JSON.stringify(where.type)}`);
  if (typeof where.value !== 'string') throw unknownClause('where.value', 'where.value must be a string');
  const pageSize = body.pageSize;
  if (pageSize !== undefined && typeof pageSize !== 'number') throw invalidArgument('InvalidPageSize', { pageSize }).because('pageSize must be a number');
  const pageToken = body.pageToken;
  if (pageToken !== undefined && typeof pageToken !== 'string') throw invalidArgument('InvalidPageToken', { pageToken }).because('pageToken must be a string');
  return { value: where.value, ...(pageSize !== undefined ? { pageSize } : {}), ...(pageToken !== undefined ? { pageToken } : {}) };
}

/** Case-insensitive substring match over the fields given. */
export const matches = (needle: string, fields: ReadonlyArray<string | undefined>) => {
  const n = needle.toLowerCase();
  return fields.some((f) => f !== undefined && f.toLowerCase().includes(n));
};
