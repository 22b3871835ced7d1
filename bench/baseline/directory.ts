// The raw baseline of the directory scenario: node:http holding the same users and groups
// (bench/lib/directory-seed.ts) in arrays and maps, answering Users.list pages (the same wire shape, the page
// token an offset) and getMarkings (a walk up the group parents to the markings). None of the emulator's
// framework, store or checks.
import http from 'node:http';
import { parseArgs } from 'node:util';
import { groupDefs, MARKING, username } from '../lib/directory-seed.js';
import { stableUuid } from '../../src/ids.js';

const { values } = parseArgs({ options: { port: { type: 'string' }, users: { type: 'string' }, token: { type: 'string' } } });
const count = Number(values.users ?? 10_000);
const users = [
  { id: stableUuid('user:admin'), username: 'admin' },
  { id: stableUuid('user:deep'), username: 'deep' },
  ...Array.from({ length: count - 1 }, (_, i) => ({
    id: stableUuid(`user:${username(i)}`),
    username: username(i),
    givenName: `Given ${i}`,
    email: `${username(i)}@example.test`,
  })),
];
const groupId = (name: string) => stableUuid(`group:${name}`);
const parents = new Map<string, string[]>();
for (const g of groupDefs(count)) {
  for (const m of g.members) {
    const id = typeof m === 'string' ? stableUuid(`user:${m}`) : groupId(m.group);
    parents.set(id, [...(parents.get(id) ?? []), groupId(g.name)]);
  }
}
const markingMembers = new Map([[MARKING, new Set([groupId('level0')])]]);
const tokens = new Set([values.token ?? 'bench-token']);
const REALM = 'platform-internal-realm';
const ORG = 'ri.organization.main.organization.default';

function wire(u: (typeof users)[number] & { givenName?: string; email?: string }) {
  const attributes: Record<string, string[]> = { 'idp:realm': [REALM] };
  if (u.givenName) attributes['idp:givenName'] = [u.givenName];
  if (u.email) attributes['idp:email:primary'] = [u.email];
  attributes['idp:organization-rid'] = [ORG];
  return {
    id: u.id,
    username: u.username,
    ...(u.givenName ? { givenName: u.givenName } : {}),
    ...(u.email ? { email: u.email } : {}),
    realm: REALM,
    organization: ORG,
    status: 'ACTIVE',
    attributes,
  };
}

function list(query: URLSearchParams) {
  const size = Math.min(Number(query.get('pageSize') ?? 1000), 10_000);
  const offset = Number(query.get('pageToken') ?? 0);
  const data = users.slice(offset, offset + size).map(wire);
  return { data, ...(offset + size < users.length ? { nextPageToken: String(offset + size) } : {}) };
}

function markings(userId: string) {
  const seen = new Set<string>();
  const queue = [...(parents.get(userId) ?? [])];
  while (queue.length > 0) {
    const g = queue.shift()!;
    if (seen.has(g)) continue;
    seen.add(g);
    queue.push(...(parents.get(g) ?? []));
  }
  const principals = [userId, ...seen];
  return {
    view: [...markingMembers]
      .filter(([, members]) => principals.some((p) => members.has(p)))
      .map(([id]) => id)
      .sort(),
  };
}

const server = http.createServer((req, res) => {
  const send = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  };
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (url.pathname === '/_emulate/health') return send(200, { status: 'ok' });
  if (!tokens.has(req.headers.authorization?.slice(7) ?? '')) return send(401, { message: 'Requires authentication' });
  if (url.pathname === '/api/v2/admin/users') return send(200, list(url.searchParams));
  const m = /^\/api\/v2\/admin\/users\/([^/]+)\/getMarkings$/.exec(url.pathname);
  if (m) return send(200, markings(m[1]!));
  send(404, { errorCode: 'NOT_FOUND' });
});

server.keepAliveTimeout = 72_000;
server.listen(Number(values.port ?? 0), '127.0.0.1', () => console.log(`directory baseline listening on ${JSON.stringify(server.address())}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
