// The raw baseline: node:http doing only the essential work of each measured route (bench/baseline/work.ts),
// with none of the emulator's framework or architecture. Ratios against it show what our layers cost.
import http from 'node:http';
import { parseArgs } from 'node:util';
import { getCurrent, mintRoute, tokenEndpoint, type Answer } from './work.js';

function reply(res: http.ServerResponse, answer: Answer): void {
  res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8', ...answer.headers });
  res.end(JSON.stringify(answer.body));
}

function readBody(req: http.IncomingMessage, done: (body: string) => void): void {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (c: string) => (body += c));
  req.on('end', () => done(body));
}

const server = http.createServer((req, res) => {
  const path = req.url?.split('?')[0];
  if (req.method === 'GET' && path === '/api/v2/admin/users/getCurrent') return reply(res, getCurrent(req.headers.authorization));
  if (req.method === 'GET' && path === '/_emulate/health') return reply(res, { status: 200, body: { status: 'ok' } });
  if (req.method === 'POST' && path === '/idp/api/oauth2/token') {
    return readBody(req, (body) => reply(res, tokenEndpoint(req.headers['content-type'], req.headers.authorization, body)));
  }
  if (req.method === 'POST' && path === '/_emulate/platform/tokens') return readBody(req, (body) => reply(res, mintRoute(body)));
  reply(res, { status: 404, body: { errorCode: 'NOT_FOUND' } });
});

const { values } = parseArgs({ options: { port: { type: 'string' } } });
server.keepAliveTimeout = 72_000; // as Fastify's default, so both keep connections alike
server.listen(Number(values.port ?? 0), '127.0.0.1', () => console.log(`baseline listening on ${JSON.stringify(server.address())}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
