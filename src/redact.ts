// Redaction the log (src/logger.ts), the journal (src/http/journal/) and refusal reasons share, so it stands on the
// ground floor. Query values that are credentials never reach the journal or the log: `?code=abc` is kept as
// `?code=[redacted]`, so a reader still sees which parameters came without seeing their values. A PKCE
// challenge counts too: with the `plain` method it is the verifier itself. `;` separates parameters as `&` does
// here (some clients join fields with it, issue 25): `?client_id=web;client_secret=x` hides the secret too, and so
// does a value holding such fields encoded (`?branchName=master%3Bclient_secret%3Dx` is kept as `branchName=[redacted]`).

const CREDENTIAL_NAMES = new Set(['code', 'state', 'nonce', 'assertion', 'client_assertion', 'key', 'apikey', 'api_key', 'code_verifier', 'code_challenge']);
/** Any parameter whose name mentions one of these is a credential too (token, refresh_token, client_secret, ...). */
const CREDENTIAL_PART = /token|secret|password|passwd|verifier|credential|session|auth/i;

export function isCredentialName(name: string): boolean {
  return CREDENTIAL_NAMES.has(name.toLowerCase()) || CREDENTIAL_PART.test(name);
}

function decodedName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/** Fields joined into one value (`master;client_secret=x`, sent encoded): each `name=` inside it. */
const JOINED_FIELD = /(?:^|[;&?,\s])([^=;&?,\s]+)=/g;

/** Whether a value carries a credential field of its own (a reason then describes it; the journal hides it too). */
const holdsCredential = (value: string): boolean => [...value.matchAll(JOINED_FIELD)].some((m) => isCredentialName(m[1]!));

/** The URL with every credential's value replaced; a URL without a query is returned as it is. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const query = url.slice(q + 1);
  const parts = query.split(/([&;])/).map((part, i) => {
    if (i % 2 === 1) return part; // a separator, kept as sent
    const eq = part.indexOf('=');
    const name = eq < 0 ? part : part.slice(0, eq);
    return eq >= 0 && (isCredentialName(decodedName(name)) || holdsCredential(decodedName(part.slice(eq + 1)))) ? `${name}=[redacted]` : part;
  });
  return `${url.slice(0, q)}?${parts.join('')}`;
}

/**
 * Whether a refused value looks like a value of a name-like field (a grant type, a client id, a response type, a
 * username, a scope): letters, digits and `_:.@-`. Only such a value is quoted into a reason or named in the
 * journal; anything else may be several fields joined into one (`web-app;client_secret=...`) and is described.
 */
export const looksLikeFieldValue = (value: string): boolean => FIELD_VALUE.test(value);
const FIELD_VALUE = /^[A-Za-z0-9_:.@-]+$/;
