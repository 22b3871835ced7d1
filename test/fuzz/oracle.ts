// What every answer must be, whatever was asked (docs/contracts.md §1): never 5xx, never a framework's body or a stack
// trace, an error in the envelope of its path's family, at most 16 KiB, and no body for HEAD.
// The family is worked out here on its own (not with the service's errorFamily), so that the two can disagree.

export type Family = 'platform' | 'oauth' | 'html';

const OAUTH = ['/idp/api/oauth2/', '/_emulate/platform/compute-modules/', '/analytics-backend-multiplexer/'];

/** The family of a request target, by its path with percent-escapes of ASCII characters decoded. */
export function familyOf(url: string): Family {
  let p = url.split('?', 1)[0]!;
  // An absolute-form target (`http://host/path`) is judged by its path.
  const absolute = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/]*(.*)$/.exec(p);
  if (absolute) p = absolute[1] || '/';
  p = p.replace(/%([0-7][0-9a-fA-F])/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  const bare = p.endsWith('/') ? p.slice(0, -1) : p;
  if (bare === '/idp/api/oauth2/authorize' || bare === '/idp/api/oauth2/authorize/callback') return 'html';
  return OAUTH.some((prefix) => p.startsWith(prefix)) ? 'oauth' : 'platform';
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

const PLATFORM_CODES: Record<string, number> = {
  INVALID_ARGUMENT: 400,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  REQUEST_ENTITY_TOO_LARGE: 413,
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const FRAMEWORK = /FST_|"statusCode"|"message":"(Client Error|Bad Request|Not Found)"|\n\s+at |Error: |node_modules/;

/** Throws with a plain description of what is wrong with `answer` to `method url`; returns when all is well. */
export function checkAnswer(method: string, url: string, answer: Answer): void {
  const fail = (why: string) => {
    throw new Error(`${method} ${url.slice(0, 200)} -> ${answer.status}: ${why}\n${answer.body.slice(0, 300)}`);
  };
  if (answer.status >= 500) fail('a 5xx');
  if (FRAMEWORK.test(answer.body)) fail("a framework's body or a stack trace");
  if (method === 'HEAD' && answer.body !== '') fail('a body on a HEAD answer');
  if (answer.status < 400 || method === 'HEAD') return;
  if (answer.body.length > 16 * 1024) fail('an error answer over 16 KiB');
  const type = String(answer.headers['content-type'] ?? '');
  const family = familyOf(url);
  if (family === 'html' && type.startsWith('text/html')) return;
  if (!type.startsWith('application/json')) fail(`content type ${type}`);
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(answer.body) as Record<string, unknown>;
  } catch {
    return fail('a body that is not JSON');
  }
  const keys = Object.keys(json).sort().join(',');
  // Bearer routes have their own 401 envelopes (docs/contracts.md §1), announced by a Bearer challenge.
  if (answer.status === 401 && String(answer.headers['www-authenticate'] ?? '').startsWith('Bearer')) {
    if (keys === 'message' || keys === 'error,error_description') return;
    fail('a 401 outside the bearer envelopes');
  }
  if (family === 'platform') {
    if (keys !== 'errorCode,errorDescription,errorInstanceId,errorName,parameters') fail(`not the platform envelope: ${keys}`);
    if (!UUID.test(String(json.errorInstanceId))) fail('errorInstanceId is not a UUID');
    const code = String(json.errorCode);
    if (!(code in PLATFORM_CODES)) fail(`unknown errorCode ${code}`);
    // The HTTP layer's refusals (408, 414, 417, 431) keep their status beside INVALID_ARGUMENT.
    if (PLATFORM_CODES[code] !== answer.status && !(code === 'INVALID_ARGUMENT' && [408, 414, 417, 431].includes(answer.status)))
      fail(`errorCode ${code} with status ${answer.status}`);
  } else {
    if (keys !== 'error,error_description') fail(`not the OAuth envelope: ${keys}`);
    if (typeof json.error !== 'string' || typeof json.error_description !== 'string') fail('OAuth fields are not strings');
  }
}
