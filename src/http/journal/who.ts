// Who a journal entry names (docs/contracts.md §7): the token's client and user, or the client and user the
// request itself names (form fields, the Basic header of an OAuth request). Never a secret: a value that could
// hide one is left out.
import type { FastifyRequest } from 'fastify';
import { looksLikeFieldValue } from '../../redact.js';

const MAX_NAME = 128;
const stringField = (body: unknown, name: string): string | undefined => {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_NAME && looksLikeFieldValue(value) ? value : undefined;
};

/** The client id of an OAuth request's Basic header (the secret after the colon is never read). */
export function basicClientId(header: string): string | undefined {
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0 || colon > MAX_NAME) return undefined;
  try {
    const id = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
    return looksLikeFieldValue(id) ? id : undefined; // `web-app;client_secret=...` is no client id to show
  } catch {
    return undefined;
  }
}

// Three functions, not one object: record() runs for every request and allocates nothing it does not keep.

export const clientIdOf = (request: FastifyRequest): string | undefined => request.accessToken?.clientId ?? stringField(request.body, 'client_id');

/** An OAuth request's Basic header, kept as it came and read for its client id only when an entry is read. */
export function basicOf(request: FastifyRequest): string | undefined {
  const authorization = request.headers.authorization;
  return authorization !== undefined && request.url.startsWith('/idp/') && /^Basic /i.test(authorization) ? authorization : undefined;
}

export const usernameOf = (request: FastifyRequest): string | undefined =>
  request.principal?.username ?? request.journalUsername ?? stringField(request.body, 'username');
