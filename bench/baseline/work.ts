// The essential work of each measured route, shared by the raw baseline (node:http) and the framework floor
// (bare Fastify), so that the two differ only in what carries the request.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { ADMIN_SCOPE, ADMIN_WIRE, CLIENT_ID, CLIENT_SECRET } from '../lib/fixtures.js';

export interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

interface Token {
  userId: string;
  scopes: string[];
  expiresAt: number;
}

const TTL_MS = 3600_000;
const tokens = new Map<string, Token>();
const users = new Map<string, typeof ADMIN_WIRE>([[ADMIN_WIRE.id, ADMIN_WIRE]]);
const usersByName = new Map<string, typeof ADMIN_WIRE>([[ADMIN_WIRE.username, ADMIN_WIRE]]);
const clientSecret = Buffer.from(CLIENT_SECRET);
const SERVICE_USER_ID = '00000000-0000-4000-8000-000000000001';
const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

function mint(userId: string, scopes: string[]): string {
  const token = 'platform_' + randomBytes(32).toString('base64url');
  tokens.set(token, { userId, scopes, expiresAt: Date.now() + TTL_MS });
  return token;
}

/** GET getCurrent: bearer parse, Map lookup, expiry and scope check, the user. */
export function getCurrent(authorization: string | undefined): Answer {
  const presented = authorization?.startsWith('Bearer ') ? authorization.slice(7) : undefined;
  const token = presented ? tokens.get(presented) : undefined;
  const user = token && token.expiresAt > Date.now() ? users.get(token.userId) : undefined;
  if (!token || !user) return { status: 401, body: { message: 'Requires authentication' } };
  if (!token.scopes.includes(ADMIN_SCOPE)) return { status: 403, body: { errorCode: 'PERMISSION_DENIED' } };
  return { status: 200, body: user };
}

/** POST token, client credentials: form parse, Basic decode, constant-time compare, random token, Map insert. */
export function tokenEndpoint(contentType: string | undefined, authorization: string | undefined, body: string): Answer {
  if (!contentType?.startsWith('application/x-www-form-urlencoded')) return { status: 400, body: { error: 'invalid_request' }, headers: NO_STORE };
  const form = new URLSearchParams(body);
  const basic = authorization?.startsWith('Basic ') ? Buffer.from(authorization.slice(6), 'base64').toString() : '';
  const colon = basic.indexOf(':');
  const id = decodeURIComponent(basic.slice(0, colon));
  const secret = Buffer.from(decodeURIComponent(basic.slice(colon + 1)));
  const secretOk = secret.length === clientSecret.length && timingSafeEqual(secret, clientSecret);
  if (colon < 0 || id !== CLIENT_ID || !secretOk) {
    return { status: 401, body: { error: 'invalid_client' }, headers: { ...NO_STORE, 'www-authenticate': 'Basic realm="platform"' } };
  }
  if (form.get('grant_type') !== 'client_credentials') return { status: 400, body: { error: 'unsupported_grant_type' }, headers: NO_STORE };
  const scopes = (form.get('scope') ?? '').split(' ').filter(Boolean);
  return {
    status: 200,
    body: { access_token: mint(SERVICE_USER_ID, scopes), token_type: 'Bearer', expires_in: 3600, scope: scopes.join(' ') },
    headers: NO_STORE,
  };
}

/** POST /_emulate/platform/tokens: how the bench fills the token Map. */
export function mintRoute(body: string): Answer {
  let request: { username?: unknown; scopes?: unknown };
  try {
    request = JSON.parse(body) as typeof request;
  } catch {
    return { status: 400, body: { errorCode: 'INVALID_ARGUMENT' } };
  }
  const user = typeof request.username === 'string' ? usersByName.get(request.username) : undefined;
  if (!user || !Array.isArray(request.scopes)) return { status: 404, body: { errorCode: 'NOT_FOUND' } };
  const scopes = request.scopes as string[];
  return { status: 200, body: { access_token: mint(user.id, scopes), token_type: 'Bearer', expires_in: 3600, scope: scopes.join(' ') } };
}
