// The raw baseline: node:http doing only the essential work of each measured route, with none of the
// emulator's framework or architecture. Ratios against it show what our layers cost.
//   GET  /api/v2/admin/users/getCurrent  bearer parse, Map lookup, expiry and scope check, JSON reply
//   POST /idp/api/oauth2/token           form parse, Basic decode, constant-time compare, random token, Map insert
//   POST /_emulate/platform/tokens       mint a token for a user (how the bench fills the token Map)
//   GET  /_emulate/health
import http from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { parseArgs } from 'node:util';
import { ADMIN_SCOPE, ADMIN_WIRE, CLIENT_ID, CLIENT_SECRET } from '../lib/fixtures.js';

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

function reply(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

function mint(userId: string, scopes: string[]): string {
  const token = 'platform_' + randomBytes(32).toString('base64url');
  tokens.set(token, { userId, scopes, expiresAt: Date.now() + TTL_MS });
  return token;
}

function readBody(req: http.IncomingMessage, done: (body: string) => void): void {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (c: string) => (body += c));
  req.on('end', () => done(body));
}

function getCurrent(req: http.IncomingMessage, res: http.ServerResponse): void {
  const header = req.headers.authorization;
  const presented = header?.startsWith('Bearer ') ? header.slice(7) : undefined;
  const token = presented ? tokens.get(presented) : undefined;
  const user = token && token.expiresAt > Date.now() ? users.get(token.userId) : undefined;
  if (!token || !user) return reply(res, 401, { message: 'Requires authentication' });
  if (!token.scopes.includes(ADMIN_SCOPE)) return reply(res, 403, { errorCode: 'PERMISSION_DENIED' });
  reply(res, 200, user);
}

function tokenEndpoint(req: http.IncomingMessage, res: http.ServerResponse, body: string): void {
  const noStore = { 'cache-control': 'no-store', pragma: 'no-cache' };
  if (!req.headers['content-type']?.startsWith('application/x-www-form-urlencoded')) return reply(res, 400, { error: 'invalid_request' }, noStore);
  const form = new URLSearchParams(body);
  const basic = req.headers.authorization?.startsWith('Basic ') ? Buffer.from(req.headers.authorization.slice(6), 'base64').toString() : '';
  const colon = basic.indexOf(':');
  const id = decodeURIComponent(basic.slice(0, colon));
  const secret = Buffer.from(decodeURIComponent(basic.slice(colon + 1)));
  const secretOk = secret.length === clientSecret.length && timingSafeEqual(secret, clientSecret);
  if (colon < 0 || id !== CLIENT_ID || !secretOk) return reply(res, 401, { error: 'invalid_client' }, { ...noStore, 'www-authenticate': 'Basic realm="platform"' });
  if (form.get('grant_type') !== 'client_credentials') return reply(res, 400, { error: 'unsupported_grant_type' }, noStore);
  const scopes = (form.get('scope') ?? '').split(' ').filter(Boolean);
  const token = mint(SERVICE_USER_ID, scopes);
  reply(res, 200, { access_token: token, token_type: 'Bearer', expires_in: 3600, scope: scopes.join(' ') }, noStore);
}

function mintRoute(res: http.ServerResponse, body: string): void {
  let request: { username?: unknown; scopes?: unknown };
  try {
    request = JSON.parse(body) as typeof request;
  } catch {
    return reply(res, 400, { errorCode: 'INVALID_ARGUMENT' });
  }
  const user = typeof request.username === 'string' ? usersByName.get(request.username) : undefined;
  if (!user || !Array.isArray(request.scopes)) return reply(res, 404, { errorCode: 'NOT_FOUND' });
  const scopes = request.scopes as string[];
  reply(res, 200, { access_token: mint(user.id, scopes), token_type: 'Bearer', expires_in: 3600, scope: scopes.join(' ') });
}

const server = http.createServer((req, res) => {
  const path = req.url?.split('?')[0];
  if (req.method === 'GET' && path === '/api/v2/admin/users/getCurrent') return getCurrent(req, res);
  if (req.method === 'GET' && path === '/_emulate/health') return reply(res, 200, { status: 'ok' });
  if (req.method === 'POST' && path === '/idp/api/oauth2/token') return readBody(req, (body) => tokenEndpoint(req, res, body));
  if (req.method === 'POST' && path === '/_emulate/platform/tokens') return readBody(req, (body) => mintRoute(res, body));
  reply(res, 404, { errorCode: 'NOT_FOUND' });
});

const { values } = parseArgs({ options: { port: { type: 'string' } } });
server.keepAliveTimeout = 72_000; // as Fastify's default, so both keep connections alike
server.listen(Number(values.port ?? 0), '127.0.0.1', () => console.log(`baseline listening on ${JSON.stringify(server.address())}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
