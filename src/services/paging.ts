// Page tokens of the directory's lists (docs/directory.md, "Paging"), also used by the filesystem's lists and
// the dashboard views (view-pages.ts), so they sit beside the services rather than inside one. A token carries
// the offset of the next page and a fingerprint of the query that made it, so that a token handed to another
// query (another route, another filter, another group) is refused with InvalidPageToken instead of silently
// paging something else.
import { createHash } from 'node:crypto';
import { invalidArgument } from '../errors.js';

export const DEFAULT_PAGE_SIZE = 1000;
export const MAX_PAGE_SIZE = 10_000;

export interface PageRequest {
  pageSize?: number | string;
  pageToken?: string;
}

export interface Page<T> {
  data: T[];
  nextPageToken?: string;
}

const fingerprint = (query: string) => createHash('sha256').update(query).digest('base64url').slice(0, 12);

/** The page size asked for, defaulted and capped; below 1 or not a whole number is InvalidPageSize. */
export function pageSizeOf(raw: number | string | undefined): number {
  if (raw === undefined || raw === '') return DEFAULT_PAGE_SIZE;
  const n = typeof raw === 'string' ? Number(raw) : raw;
  if (!Number.isInteger(n) || n < 1)
    // A number where the query's text is one (the wire's PageSize is an integer), as a JSON body gives it.
    throw invalidArgument('InvalidPageSize', { pageSize: Number.isFinite(n) ? n : raw }).because(
      `pageSize must be a whole number of at least 1; got ${String(raw)}`,
    );
  return Math.min(n, MAX_PAGE_SIZE);
}

/** The offset a token stands for; `query` names what is being paged (route and filters). */
export function offsetOf(token: string | undefined, query: string): number {
  if (token === undefined || token === '') return 0;
  const m = /^([A-Za-z0-9_-]{12})\.(\d{1,9})$/.exec(token);
  if (!m) throw invalidArgument('InvalidPageToken', { pageToken: token }).because('the page token is not one this service handed out');
  if (m[1] !== fingerprint(query)) {
    throw invalidArgument('InvalidPageToken', { pageToken: token }).because(
      'the page token was handed out for another query (another route, filter or parent); page from the first page again',
    );
  }
  return Number(m[2]);
}

export const tokenFor = (query: string, offset: number) => `${fingerprint(query)}.${offset}`;

/** One page of an ordered list held whole. */
export function pageOf<T>(items: readonly T[], request: PageRequest, query: string): Page<T> {
  const size = pageSizeOf(request.pageSize);
  const start = offsetOf(request.pageToken, query);
  const data = items.slice(start, start + size);
  const page: Page<T> = { data };
  if (start + size < items.length) page.nextPageToken = tokenFor(query, start + size);
  return page;
}
