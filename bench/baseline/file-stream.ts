// The raw file-stream baseline of the datasets scenario: node:http streaming an upload to a file on disk and
// streaming it back, nothing else. The emulator's upload and readTable rates are compared with it.
import http from 'node:http';
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';

const dir = mkdtempSync(join(tmpdir(), 'file-baseline-'));
const file = join(dir, 'upload.bin');

const server = http.createServer((req, res) => {
  const path = req.url?.split('?')[0];
  if (path === '/_emulate/health') return void res.end('{"status":"ok"}');
  if (req.method === 'POST' && path === '/upload') {
    pipeline(req, createWriteStream(file)).then(
      () => res.end('{}'),
      () => res.destroy(),
    );
    return;
  }
  if (req.method === 'GET' && path === '/file') {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    return void pipeline(createReadStream(file), res).catch(() => res.destroy());
  }
  res.statusCode = 404;
  res.end();
});

const { values } = parseArgs({ options: { port: { type: 'string' } } });
server.listen(Number(values.port), '127.0.0.1');
const stop = () => {
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
