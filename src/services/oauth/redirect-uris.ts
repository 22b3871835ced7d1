// Redirect URIs: exact match against the client's registration, except that a loopback host matches on any
// port (RFC 8252 §7.3); in open mode any absolute http(s) URI without a fragment.
import type { ResolvedClient } from './clients.js';

/** A loopback origin and its optional port, up to where the path, query or end begins. */
const LOOPBACK_ORIGIN = /^(https?:\/\/(?:127\.0\.0\.1|\[::1\]|localhost))(?::\d{1,5})?(?=[/?]|$)/;

function parseAbsolute(uri: string): URL | undefined {
  try {
    const url = new URL(uri);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The only redirect URIs authorize accepts; the seed refuses to register any other (it could never match). */
export const isAbsoluteRedirectUri = (uri: string): boolean => parseAbsolute(uri) !== undefined && !uri.includes('#');

/**
 * The URI with the port taken out, for loopback hosts; undefined for other URIs. Textual, so that everything
 * but the port still matches exactly (no case folding of the host, no resolving of `..` in the path).
 */
function withoutLoopbackPort(uri: string): string | undefined {
  const origin = LOOPBACK_ORIGIN.exec(uri);
  return origin ? origin[1] + uri.slice(origin[0].length) : undefined;
}

function matchesRegistered(registered: string, presented: string): boolean {
  if (registered === presented) return true;
  const a = withoutLoopbackPort(registered);
  return a !== undefined && a === withoutLoopbackPort(presented);
}

type RedirectCheck = { redirectUri: string } | { problem: string };

/** Picks the redirect URI of an authorize request, or says why there is none. */
export function checkRedirectUri(resolved: ResolvedClient, presented: string | undefined): RedirectCheck {
  const registered = resolved.client.redirectUris;
  if (presented === undefined) {
    if (!resolved.open && registered.length === 1) return { redirectUri: registered[0]! };
    return {
      problem:
        resolved.open || registered.length === 0 ? 'redirect_uri is required.' : 'redirect_uri is required: the client has several registered redirect URIs.',
    };
  }
  if (!isAbsoluteRedirectUri(presented)) return { problem: 'redirect_uri must be an absolute http or https URI without a fragment.' };
  if (resolved.open || registered.some((r) => matchesRegistered(r, presented))) return { redirectUri: presented };
  return { problem: 'redirect_uri does not match any redirect URI registered for this client.' };
}

/** `<redirect_uri>?code=...&state=...`, keeping the URI's own query parameters exactly as they were. */
export function redirectWith(redirectUri: string, params: Record<string, string | undefined>): string {
  const query = Object.entries(params)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');
  const separator = !redirectUri.includes('?') ? '?' : redirectUri.endsWith('?') || redirectUri.endsWith('&') ? '' : '&';
  return redirectUri + separator + query;
}
