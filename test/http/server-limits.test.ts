// docs/contracts.md §8, issue 10 item 3, on real sockets: a body trickled byte by byte and headers that never end are
// cut; idle connections close; long-polls and held executes are NOT cut by those timeouts (Node counts them
// only while a request is being received); the connection cap refuses the excess with one warning.
import http from 'node:http';
import { validateTestSeed } from '../helpers/seed.js';
import net, { type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildTestApp } from '../helpers/app.js';
import { ADDER, MUX, seed as moduleSeed } from '../compute-modules/helpers.js';
import { parseAnswer } from './raw-socket.js';
import { resolveSettings } from '../../src/settings.js';
import { maxDatasetFileBytes } from '../../src/services/datasets/caps.js';
import { maxStreamRecords } from '../../src/services/streams/caps.js';
import { maxOntologyFileBytes } from '../../src/services/ontologies/attachments/caps.js';

const SHORT = { request_timeout_ms: 400, headers_timeout_ms: 300, keep_alive_timeout_ms: 300 };

let app: FastifyInstance | undefined;
const timers: NodeJS.Timeout[] = [];
afterEach(async () => {
  for (const t of timers.splice(0)) clearInterval(t);
  await app?.close();
  app = undefined;
});

async function listen(a: FastifyInstance): Promise<number> {
  app = a;
  await a.listen({ port: 0, host: '127.0.0.1' });
  return (a.server.address() as AddressInfo).port;
}

/** A connection whose bytes the test writes; resolves with what came back once the server closed it. */
function connection(port: number): { socket: Socket; closed: Promise<{ text: string; afterMs: number }> } {
  const socket = net.connect(port, '127.0.0.1');
  const started = Date.now();
  const chunks: Buffer[] = [];
  socket.on('data', (d) => chunks.push(d));
  socket.on('error', () => undefined);
  const closed = new Promise<{ text: string; afterMs: number }>((resolve) =>
    socket.on('close', () => resolve({ text: Buffer.concat(chunks).toString('latin1'), afterMs: Date.now() - started })),
  );
  return { socket, closed };
}

/** Writes one byte of `text` every `everyMs` until the socket closes or the text runs out. */
function trickle(socket: Socket, text: string, everyMs: number): void {
  let at = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || at >= text.length) return clearInterval(timer);
    socket.write(text[at++]!);
  }, everyMs);
  timers.push(timer);
}

describe('slow clients', () => {
  it('a body trickled at a byte per 50 ms is cut with 408 in the family envelope and Connection: close', async () => {
    const port = await listen((await buildTestApp({ seed: { platform: { limits: SHORT } } })).app);
    for (const [path, family] of [
      ['/_emulate/platform/tokens', 'platform'],
      ['/idp/api/oauth2/token', 'oauth'],
    ] as const) {
      const { socket, closed } = connection(port);
      socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`);
      trickle(socket, 'x'.repeat(100), 50);
      const { text } = await closed;
      const answer = parseAnswer(text, true);
      expect(answer.status).toBe(408);
      expect(answer.headers.connection).toBe('close');
      expect(Object.keys(JSON.parse(answer.body)).sort()).toEqual(
        family === 'oauth' ? ['error', 'error_description'] : ['errorCode', 'errorDescription', 'errorInstanceId', 'errorName', 'parameters'],
      );
    }
  });

  it('a 408 is the one answer, and the one logged error, of the request it cut', async () => {
    const lines: string[] = [];
    const port = await listen(
      (await buildTestApp({ seed: { platform: { limits: SHORT } }, logLevel: 'info', logDestination: { write: (l: string) => lines.push(l) } })).app,
    );
    const { socket, closed } = connection(port);
    socket.write('POST /_emulate/platform/tokens HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{');
    const { text } = await closed;
    expect(text.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    await app!.close();
    app = undefined;
    expect(lines.filter((l) => l.includes('"platform error"'))).toHaveLength(1);
  });

  it('headers that never end are cut (408), and a connection that never sends a byte is closed', async () => {
    const port = await listen((await buildTestApp({ seed: { platform: { limits: SHORT } } })).app);
    const slow = connection(port);
    slow.socket.write('GET /_emulate/health HTTP/1.1\r\n');
    trickle(slow.socket, 'X-Slow: ' + 'a'.repeat(10_000), 50);
    expect(parseAnswer((await slow.closed).text, true).status).toBe(408);
    const silent = connection(port);
    expect((await silent.closed).text).toBe('');
  });

  it('an idle keep-alive connection is closed after keep_alive_timeout_ms', async () => {
    const port = await listen((await buildTestApp({ seed: { platform: { limits: SHORT } } })).app);
    const { socket, closed } = connection(port);
    socket.write('GET /_emulate/health HTTP/1.1\r\nHost: x\r\n\r\n');
    const { text } = await closed;
    const answer = parseAnswer(text, true);
    expect(answer.status).toBe(200);
    expect(answer.headers['keep-alive']).toMatch(/timeout=/);
  });
});

describe('held requests are not cut by the receive timeouts', () => {
  it('a synchronous execute held for 1.5 s and a long-poll of 1.5 s both answer, with 300-400 ms timeouts', async () => {
    const doc = moduleSeed({ pollTimeoutMs: 1500, executeTimeoutMs: 60_000 });
    const t = await buildTestApp({ seed: { platform: { ...doc.platform, limits: SHORT } } });
    const port = await listen(t.app);
    const token = (await t.app.inject({ method: 'POST', url: '/_emulate/platform/tokens', payload: { username: 'admin' } })).json().access_token as string;
    const agent = new http.Agent({ keepAlive: false });
    const send = (method: string, path: string, headers: Record<string, string>, body?: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port, path, method, headers, agent }, (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode!, body: text }));
        });
        req.on('error', reject);
        req.end(body);
      });
    const started = Date.now();
    const execute = send(
      'POST',
      `${MUX}/compute-modules/jobs/execute`,
      { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      JSON.stringify({ deployedAppRid: ADDER, queryType: 'add', query: { a: 1 } }),
    );
    // The long-poll on the other runtime has nothing to take: it is held for its whole 1.5 s, then 204.
    const poll = send('GET', '/_emulate/platform/compute-modules/runtimes/rt-2/job', { 'module-auth-token': 'module-token-2' });
    expect((await poll).status).toBe(204);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
    // The execute has waited as long; the module answers now, over the same kind of socket.
    const job = await send('GET', '/_emulate/platform/compute-modules/runtimes/rt-1/job', { 'module-auth-token': 'module-token-1' });
    const jobId = JSON.parse(job.body).computeModuleJobV1.jobId as string;
    await new Promise((resolve) => setTimeout(resolve, 500));
    const posted = await send(
      'POST',
      `/_emulate/platform/compute-modules/runtimes/rt-1/results/${jobId}`,
      { 'module-auth-token': 'module-token-1', 'content-type': 'application/octet-stream' },
      '42',
    );
    expect(posted.status).toBe(200);
    expect(await execute).toEqual({ status: 200, body: '42' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
  });
});

describe('the connection cap', () => {
  it('refuses connections past limits.max_connections and warns once', async () => {
    const lines: string[] = [];
    const port = await listen(
      (
        await buildTestApp({
          seed: { platform: { limits: { max_connections: 3 } } },
          logLevel: 'warn',
          logDestination: { write: (l: string) => lines.push(l) },
        })
      ).app,
    );
    const held = [connection(port), connection(port), connection(port)];
    await Promise.all(held.map(({ socket }) => new Promise((resolve) => socket.once('connect', resolve))));
    // Each of these is accepted by the kernel, then closed by the server without a byte.
    for (let i = 0; i < 3; i++) expect((await connection(port).closed).text).toBe('');
    const warnings = lines.filter((l) => l.includes('limits.max_connections'));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!)).toMatchObject({ level: 40, maxConnections: 3 });
    // Once one closes, a new connection is served.
    held[0]!.socket.destroy();
    await held[0]!.closed;
    const served = connection(port);
    served.socket.write('GET /_emulate/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(parseAnswer((await served.closed).text, true).status).toBe(200);
    for (const { socket } of held) socket.destroy();
  });
});

describe('settings', () => {
  it('have defaults a test suite never meets, and take the config keys', () => {
    expect(resolveSettings(validateTestSeed({}), {}, {}).limits).toEqual({
      maxConnections: 10_000,
      requestTimeoutMs: 60_000,
      headersTimeoutMs: 20_000,
      keepAliveTimeoutMs: 30_000,
    });
    const set = resolveSettings(validateTestSeed({ platform: { limits: { max_connections: 5, ...SHORT } } }), {}, {});
    expect(set.limits).toEqual({
      maxConnections: 5,
      requestTimeoutMs: 400,
      headersTimeoutMs: 300,
      keepAliveTimeoutMs: 300,
    });
    // The services' caps are theirs, read from the seed with their defaults (each service's caps.ts).
    expect(maxDatasetFileBytes(validateTestSeed({}))).toBe(1024 * 1024 * 1024);
    expect(maxStreamRecords(validateTestSeed({}))).toBe(1_000_000);
    expect(maxOntologyFileBytes(validateTestSeed({}))).toBe(200 * 1024 * 1024);
    expect(maxDatasetFileBytes(validateTestSeed({ platform: { limits: { max_dataset_file_bytes: 7 } } }))).toBe(7);
    expect(() => validateTestSeed({ platform: { limits: { max_stream_records: 0 } } })).toThrow('platform.limits.max_stream_records');
    expect(() => validateTestSeed({ platform: { limits: { request_timeout_ms: 0 } } })).toThrow();
    expect(() => validateTestSeed({ platform: { limits: { max_conections: 5 } } })).toThrow();
  });
});
