// The raw baseline of the ontology scenario: node:http holding the same objects (bench/lib/ontology-seed.ts)
// in an array and a primary-key Map, answering loadObjects with the same filter work (eq/gte/and, the key
// Map for an eq on the key) and the same page shape. None of the emulator's framework, store or checks.
import http from 'node:http';
import { parseArgs } from 'node:util';
import { items, OBJECT_TYPE, type Item } from '../lib/ontology-seed.js';

const { values } = parseArgs({ options: { port: { type: 'string' }, objects: { type: 'string' }, token: { type: 'string' } } });
const all = items(Number(values.objects ?? 100_000));
const byId = new Map(all.map((o) => [o.id, o]));
const tokens = new Set([values.token ?? 'bench-token']);

type Clause = { type: string; field?: keyof Item; value: unknown };
const test = (o: Item, c: Clause): boolean =>
  c.type === 'and'
    ? (c.value as Clause[]).every((x) => test(o, x))
    : c.type === 'eq'
      ? o[c.field!] === c.value
      : c.type === 'gte'
        ? (o[c.field!] as number) >= (c.value as number)
        : false;

function loadObjects(body: string): unknown {
  const req = JSON.parse(body) as { objectSet: { where: Clause }; pageSize: number };
  const where = req.objectSet.where;
  const candidates = where.type === 'eq' && where.field === 'id' ? [byId.get(where.value as number)].filter((o): o is Item => o !== undefined) : all;
  const matches = candidates.filter((o) => test(o, where));
  const data = matches.slice(0, req.pageSize).map((o) => ({ ...o, __apiName: OBJECT_TYPE, __primaryKey: o.id, __title: o.name }));
  return { data, totalCount: String(matches.length), ...(matches.length > req.pageSize ? { nextPageToken: 'next' } : {}), propertySecurities: [] };
}

const server = http.createServer((req, res) => {
  const send = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  };
  const path = req.url?.split('?')[0];
  if (path === '/_emulate/health') return send(200, { status: 'ok' });
  if (req.method !== 'POST' || !path?.endsWith('/objectSets/loadObjects')) return send(404, { errorCode: 'NOT_FOUND' });
  if (!tokens.has(req.headers.authorization?.slice(7) ?? '')) return send(401, { message: 'Requires authentication' });
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (c: string) => (body += c));
  req.on('end', () => send(200, loadObjects(body)));
});

server.keepAliveTimeout = 72_000;
server.listen(Number(values.port ?? 0), '127.0.0.1', () => console.log(`ontology baseline listening on ${JSON.stringify(server.address())}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
