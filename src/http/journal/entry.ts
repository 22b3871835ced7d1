// What the journal keeps of one request (docs/contracts.md §7), and the filters its readers may apply.

export interface JournalEntry {
  /** Increasing; never reused, also across clears and resets, so that a live reader can resume. */
  id: number;
  /** ISO-8601, from the service's clock (the injected one, which tests may move). */
  time: string;
  method: string;
  /** The path as served, with the query values of credentials replaced by `[redacted]`. */
  path: string;
  /** The path the client sent, when a path alias rewrote it (redacted the same way). */
  originalPath?: string;
  status: number;
  durationMs: number;
  clientId?: string;
  username?: string;
  /** The refusal's code: OAuth `error`, platform `errorName`, `unauthenticated`, or the HTML page's kind. */
  errorCode?: string;
  /**
   * For every refusal: what was expected and what came, in plain words. On an answer that is not a refusal,
   * a note when the service can see it will not do what the caller hopes (a job no function of its module answers).
   * On a request its client left, first of all that it left (`clientLeft`).
   */
  reason?: string;
  /**
   * Present (true) only when the client closed the connection before the answer was complete (a client timeout,
   * a cancelled request, a download dropped half way). The status is then 499 if nothing had been sent, or the
   * status being sent; `reason` says which, and `durationMs` is how long the client waited.
   */
  clientLeft?: true;
}

export interface JournalFilter {
  limit?: number;
  method?: string;
  /** An exact status (404) or a class (`4xx`). */
  status?: string | number;
  /** Entries whose path starts with this. */
  path?: string;
  /** Only refusals (status >= 400). */
  refusals?: boolean;
  /** Only requests whose client left before the answer was complete (true), or only the others (false). */
  clientLeft?: boolean;
}

export function matches(entry: JournalEntry, filter: JournalFilter): boolean {
  if (filter.refusals && entry.status < 400) return false;
  if (filter.clientLeft !== undefined && (entry.clientLeft === true) !== filter.clientLeft) return false;
  if (filter.method !== undefined && entry.method !== filter.method.toUpperCase()) return false;
  if (filter.path !== undefined && !entry.path.startsWith(filter.path)) return false;
  if (filter.status !== undefined) {
    const s = String(filter.status).toLowerCase();
    if (/^[1-5]xx$/.test(s)) {
      if (Math.floor(entry.status / 100) !== Number(s[0])) return false;
    } else if (entry.status !== Number(s)) return false;
  }
  return true;
}
