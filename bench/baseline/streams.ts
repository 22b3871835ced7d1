// The raw floor for the streams scenario: node:http with the same routes' essential work (parse the JSON body,
// keep each record's text in an array, answer 204; read a slice back as `[{offset, value}]`), no auth, no
// schema check, no framework. What the emulator's layers cost is the difference.
import http from 'node:http';
import { parseArgs } from 'node:util';

const records: string[] = [];
const body = (req: http.IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  const path = url.pathname;
  if (path === '/_emulate/health') return void res.end('{"status":"ok"}');
  if (req.method === 'POST' && (path.endsWith('/publishRecord') || path.endsWith('/publishRecords'))) {
    void body(req).then((text) => {
      const parsed = JSON.parse(text) as { record?: unknown; records?: unknown[] };
      for (const r of parsed.records ?? [parsed.record]) records.push(JSON.stringify(r));
      res.statusCode = 204;
      res.end();
    });
    return;
  }
  if (path.endsWith('/getRecords')) {
    const start = Number(url.searchParams.get('startOffset') ?? 0);
    const limit = Number(url.searchParams.get('limit') ?? 100);
    const out: string[] = [];
    for (let o = start; o < Math.min(records.length, start + limit); o++) out.push(`{"offset":${o},"value":${records[o]}}`);
    res.setHeader('content-type', 'application/json');
    return void res.end(`[${out.join(',')}]`);
  }
  if (path.endsWith('/getEndOffsets')) return void res.end(JSON.stringify({ 0: records.length }));
  res.statusCode = 404;
  res.end();
});

const { values } = parseArgs({ options: { port: { type: 'string' } } });
server.listen(Number(values.port ?? 0), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
