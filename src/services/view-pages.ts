// What the list route of a dashboard view answers (ServiceModule.backstage.views, docs/architecture.md): the rows
// its search `q` kept, as `{items, nextPageToken?}`, 100 a page unless `pageSize` says otherwise. One shape for
// every view, so that the dashboard draws them all with one table.
import { Type } from '@sinclair/typebox';
import { pageOf, type Page } from './paging.js';

/** A view's list route's query string. */
export const ViewListQuery = Type.Object({ q: Type.Optional(Type.String()), pageToken: Type.Optional(Type.String()), pageSize: Type.Optional(Type.String()) });

export interface ViewQuery {
  q?: string;
  pageSize?: string;
  pageToken?: string;
}

/** The search text of a view's request: lower case, trimmed, '' for none. */
export const searchOf = (query: ViewQuery): string => (query.q ?? '').trim().toLowerCase();

/** One page of a view's rows; `key` names the listing and its search (a page token is good for that listing only). */
export const viewPageOf = <T>(rows: readonly T[], query: ViewQuery, key: string): Page<T> =>
  pageOf(rows, { pageSize: query.pageSize ?? '100', ...(query.pageToken ? { pageToken: query.pageToken } : {}) }, key);

/** The answer for a page whose items were built from its rows (when only the page shown is worth reading further). */
export const viewAnswer = <T>(items: T[], page: Page<unknown>) => ({ items, ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}) });

/** The answer for a page of rows shown as they are. */
export function viewPage<T>(rows: readonly T[], query: ViewQuery, key: string) {
  const page = viewPageOf(rows, query, key);
  return viewAnswer(page.data, page);
}
