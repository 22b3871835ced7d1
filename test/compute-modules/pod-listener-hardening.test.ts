// The in-pod runtime listener (docs/contracts.md §10) gets the same hardening as the public runtime routes (issue 10:
// docs/contracts.md §1, §6, §8), because it serves them with the same handlers, hooks and server options: over real
// TLS sockets trusting the CA the session hands out.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { request as httpsRequest } from 'node:https';
import { connect as tlsConnect } from 'node:tls';
import { connect as netConnect } from 'node:net';
import { Duplex } from 'node:stream';
import { startEmulator, type Emulator } from '../../src/index.js';
import { exchangeOn, parseAnswer, type RawAnswer } from '../http/raw-socket.js';

const RUNTIMES = '/_emulate/platform/compute-modules/runtimes';
const MUX = '/analytics-backend-multiplexer/api/module-group-multiplexer';
const MODULE_GONE_MS = 1_500;

interface Session {
  runtimeId: string;
  moduleAuthToken: string;
  podRuntime: { host: string; port: number; caCertificate: string };
}

let emulator: Emulator;
let adminToken: string;
let port: number;
let ca: string;
beforeAll(async () => {
  emulator = await startEmulator({
    seed: {
      platform: {
        limits: { request_timeout_ms: 1_000, headers_timeout_ms: 1_000 },
        compute_modules: {
          poll_timeout_ms: 200,
          module_gone_ms: MODULE_GONE_MS,
          // Seeds are not held to the POST shapes: a short seeded token keeps working.
          runtimes: [{ runtime_id: 'rt-seeded', module_auth_token: 'short-token' }],
        },
      },
    },
  });
  const res = await fetch(`${emulator.url}/_emulate/platform/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin' }),
  });
  adminToken = ((await res.json()) as { access_token: string }).access_token;
  const listener = await emulator.server.podListener();
  port = listener.port;
  ca = listener.caCertificate;
});
afterAll(() => emulator.close());

async function openSession(runtimeId: string): Promise<Session> {
  const res = await fetch(`${emulator.url}${RUNTIMES}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ runtimeId, deployedAppRid: `ri.app.${runtimeId}` }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Session;
}

const submit = async (runtimeId: string) => {
  const res = await fetch(`${emulator.url}${MUX}/deployed-apps/jobs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ deployedAppRid: `ri.app.${runtimeId}`, queryType: 'q', query: {} }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: string }).id;
};

const inspect = async (runtimeId: string, jobId: string) =>
  ((await (await fetch(`${emulator.url}${RUNTIMES}/${runtimeId}/jobs/${jobId}`)).json()) as { job: { state: string; handOuts: number } }).job;

interface PodAnswer {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

/** One request to the pod listener over TLS, trusting its CA. */
function pod(method: string, path: string, options: { token?: string; body?: string; contentType?: string } = {}): Promise<PodAnswer> {
  const headers: Record<string, string> = {};
  if (options.token !== undefined) headers['module-auth-token'] = options.token;
  if (options.contentType) headers['content-type'] = options.contentType;
  if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body));
  return new Promise((resolve, reject) => {
    const req = httpsRequest({ host: '127.0.0.1', port, method, path, headers, agent: false, ca }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString(), headers: res.headers }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const poll = (session: Session, token = session.moduleAuthToken) => pod('GET', `${RUNTIMES}/${session.runtimeId}/job`, { token });

function expectOAuth(answer: { status: number; body: string }, status: number, error: string): void {
  expect(answer.status).toBe(status);
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['error', 'error_description']);
  expect(body.error).toBe(error);
}

/**
 * Raw bytes over TLS, for what a client library would refuse to send: `send` writes the request (all at once
 * or slowly); reads until the server closes or `waitMs` passes.
 */
function rawTls(send: (write: (bytes: string) => void) => void | Promise<void>, waitMs = 5_000): Promise<RawAnswer> {
  return exchangeOn(tlsConnect({ host: '127.0.0.1', port, ca }), 'secureConnect', send, waitMs);
}

function expectOAuthClosed(answer: RawAnswer, status: number): void {
  expectOAuth(answer, status, 'invalid_request');
  expect(answer.headers.connection).toBe('close');
  expect(answer.closed).toBe(true);
}

describe('pod listener, hardened like the public runtime routes', () => {
  it('HEAD on the poll route hands out nothing', async () => {
    const session = await openSession('rt-podh-head');
    const jobId = await submit(session.runtimeId);
    const head = await pod('HEAD', `${RUNTIMES}/${session.runtimeId}/job`, { token: session.moduleAuthToken });
    expect(head.status).toBe(404);
    expect(head.body).toBe('');
    expect((await inspect(session.runtimeId, jobId)).state).toBe('queued');
    const got = await poll(session);
    expect(JSON.parse(got.body).computeModuleJobV1.jobId).toBe(jobId);
    expect((await inspect(session.runtimeId, jobId)).handOuts).toBe(1);
  });

  it('refuses a runtime id of the wrong shape with 400 in the OAuth envelope, on both ports; a token of any shape is right or wrong (401)', async () => {
    const session = await openSession('rt-podh-shape');
    for (const id of ['bad%20id', 'a'.repeat(129), 'r%C3%A9sum%C3%A9', 'rt%0A1']) {
      expectOAuth(await pod('GET', `${RUNTIMES}/${id}/job`, { token: session.moduleAuthToken }), 400, 'invalid_request');
      expectOAuth(await pod('POST', `${RUNTIMES}/${id}/restart`, { token: session.moduleAuthToken }), 400, 'invalid_request');
      const res = await fetch(`${emulator.url}${RUNTIMES}/${id}/job`, { headers: { 'module-auth-token': session.moduleAuthToken } });
      expectOAuth({ status: res.status, body: await res.text() }, 400, 'invalid_request');
    }
    expectOAuth(await pod('GET', `${RUNTIMES}/no-such-runtime/job`, { token: session.moduleAuthToken }), 404, 'not_found'); // well-shaped, unknown
    // docs/contracts.md §6: a missing or wrong token is 401, its shape notwithstanding (a seeded token rotated away is short).
    for (const token of ['short', 'x'.repeat(513), 'with a space in it!!', 'y'.repeat(32)])
      expectOAuth(await poll(session, token), 401, 'invalid_module_auth_token');
    expect((await poll(session)).status).toBe(204);
    // A seeded runtime's token is not held to the shape: it is the runtime's token, so it is accepted.
    expect((await poll({ runtimeId: 'rt-seeded', moduleAuthToken: 'short-token', podRuntime: session.podRuntime })).status).toBe(204);
  });

  it('refuses a schemas post nested 10,000 deep with 400, storing nothing', async () => {
    const session = await openSession('rt-podh-deep');
    const path = `${RUNTIMES}/${session.runtimeId}/schemas`;
    const good = await pod('POST', path, { token: session.moduleAuthToken, body: JSON.stringify([{ functionName: 'f' }]), contentType: 'application/json' });
    expect(good.status).toBe(204);
    const deep = `[{"functionName":"g","x":${'['.repeat(10_000)}${']'.repeat(10_000)}}]`;
    expectOAuth(await pod('POST', path, { token: session.moduleAuthToken, body: deep, contentType: 'application/json' }), 400, 'invalid_request');
    const stored = await fetch(`${emulator.url}${MUX}/schemas?rid=ri.app.${session.runtimeId}`, { headers: { authorization: `Bearer ${adminToken}` } });
    expect(((await stored.json()) as Array<{ functionName: string }>).map((s) => s.functionName)).toEqual(['f']);
  });

  it('answers what the HTTP layer refuses in the OAuth envelope with Connection: close', async () => {
    const session = await openSession('rt-podh-raw');
    const job = `${RUNTIMES}/${session.runtimeId}/job`;
    const head = (line: string, extra = '') => `${line}\r\nHost: 127.0.0.1\r\nModule-Auth-Token: ${session.moduleAuthToken}\r\n${extra}\r\n`;
    expectOAuthClosed(await rawTls((w) => w(head(`FOO ${job} HTTP/1.1`))), 400); // unknown method
    expectOAuthClosed(await rawTls((w) => w(head(`GET ${job} HTTP/1.1`, 'Bad Header\r\n'))), 400); // header syntax
    expectOAuthClosed(await rawTls((w) => w(head(`POST ${RUNTIMES}/${session.runtimeId}/schemas HTTP/1.1`, 'Transfer-Encoding: gzip\r\n'))), 400); // no framing
    expectOAuthClosed(await rawTls((w) => w(head(`GET ${job} HTTP/1.1`, `X-Big: ${'a'.repeat(20_000)}\r\n`))), 431);
    // The router's refusals, answered through the renderers: a bad percent-escape, an overlong segment.
    const badEscape = await pod('GET', `${RUNTIMES}/%zz/job`, { token: session.moduleAuthToken });
    expectOAuth(badEscape, 400, 'invalid_request');
    expectOAuth(await pod('GET', `${RUNTIMES}/${'a'.repeat(1_100)}/job`, { token: session.moduleAuthToken }), 414, 'invalid_request');
  });

  it('cuts a body that arrives too slowly with 408 (limits.request_timeout_ms)', async () => {
    const session = await openSession('rt-podh-slow');
    const started = Date.now();
    const answer = await rawTls(async (write) => {
      write(
        `POST ${RUNTIMES}/${session.runtimeId}/schemas HTTP/1.1\r\nHost: 127.0.0.1\r\nModule-Auth-Token: ${session.moduleAuthToken}\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n[`,
      );
      for (let i = 0; i < 100; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        write(' ');
      }
    }, 15_000);
    expectOAuthClosed(answer, 408);
    expect(Date.now() - started).toBeLessThan(10_000); // the trickle alone would take 10 s
  });

  it('takes back a job whose module went away after taking it (module-gone), counting the hand-out', async () => {
    const session = await openSession('rt-podh-gone');
    const jobId = await submit(session.runtimeId);
    expect(JSON.parse((await poll(session)).body).computeModuleJobV1.jobId).toBe(jobId);
    // No poll follows: after module_gone_ms the runtime's timer puts the job back.
    await vi.waitFor(async () => expect((await inspect(session.runtimeId, jobId)).state).toBe('queued'), { timeout: 10_000, interval: 50 });
    expect((await inspect(session.runtimeId, jobId)).handOuts).toBe(1);
    expect(JSON.parse((await poll(session)).body).computeModuleJobV1.jobId).toBe(jobId);
    expect((await inspect(session.runtimeId, jobId)).handOuts).toBe(2);
  });

  it('takes back, counted, a job whose answer was written but whose connection was reset before the next poll', async () => {
    const session = await openSession('rt-podh-rst');
    const jobId = await submit(session.runtimeId);
    // TLS over a JavaScript stream, so that the TCP socket underneath can be reset (resetAndDestroy needs a TCP handle).
    const tcp = netConnect(port, '127.0.0.1');
    tcp.on('error', () => undefined);
    const carrier = new Duplex({ read() {}, write: (chunk: Buffer, _enc, callback) => void tcp.write(chunk, callback) });
    tcp.on('data', (d: Buffer) => carrier.push(d));
    const socket = tlsConnect({ socket: carrier, ca });
    socket.on('error', () => undefined);
    const arrived = new Promise<void>((resolve) => socket.once('data', () => resolve()));
    socket.write(`GET ${RUNTIMES}/${session.runtimeId}/job HTTP/1.1\r\nHost: 127.0.0.1\r\nModule-Auth-Token: ${session.moduleAuthToken}\r\n\r\n`);
    await arrived;
    expect((await inspect(session.runtimeId, jobId)).state).toBe('inProgress');
    tcp.resetAndDestroy();
    socket.destroy();
    await vi.waitFor(async () => expect((await inspect(session.runtimeId, jobId)).state).toBe('queued'), { timeout: 5_000, interval: 20 });
    expect((await inspect(session.runtimeId, jobId)).handOuts).toBe(1); // a cut answer counts as a hand-out (issue 25)
  });
});

describe('pod listener, connection limits', () => {
  let limited: Emulator;
  let limitedPort: number;
  let limitedCa: string;
  beforeAll(async () => {
    limited = await startEmulator({ seed: { platform: { limits: { max_connections: 3, keep_alive_timeout_ms: 300 } } } });
    ({ port: limitedPort, caCertificate: limitedCa } = await limited.server.podListener());
  });
  afterAll(() => limited.close());

  /** A plain TCP connection; resolves `closed` with what the server sent before it closed. */
  const tcp = () => {
    const socket = netConnect(limitedPort, '127.0.0.1');
    socket.on('error', () => undefined);
    const chunks: Buffer[] = [];
    socket.on('data', (d: Buffer) => chunks.push(d));
    const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(Buffer.concat(chunks).toString('latin1'))));
    const connected = new Promise((resolve) => socket.once('connect', resolve));
    return { socket, closed, connected };
  };

  it('closes an idle keep-alive connection after limits.keep_alive_timeout_ms', async () => {
    const socket = tlsConnect({ host: '127.0.0.1', port: limitedPort, ca: limitedCa });
    socket.on('error', () => undefined);
    const answered = new Promise<string>((resolve) => socket.once('data', (d: Buffer) => resolve(d.toString('latin1'))));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.write(`GET ${RUNTIMES}/no-such-runtime/job HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    expect(parseAnswer(await answered, false).headers.connection).toBe('keep-alive');
    await closed; // by the server: the test would time out otherwise
  });

  it('refuses connections past limits.max_connections, counted on its own', async () => {
    const held = [tcp(), tcp(), tcp()];
    await Promise.all(held.map((c) => c.connected));
    for (let i = 0; i < 2; i++) expect(await tcp().closed).toBe(''); // accepted by the kernel, closed without a byte
    held[0]!.socket.destroy();
    await held[0]!.closed;
    const served = await rawTlsTo(limitedPort, limitedCa, `GET ${RUNTIMES}/no-such-runtime/job HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    expectOAuth(served, 404, 'not_found');
    // The public port has its own count: it still answers while the pod listener is full.
    const full = [tcp(), tcp()];
    await Promise.all(full.map((c) => c.connected));
    expect((await fetch(`${limited.url}/_emulate/health`)).status).toBe(200);
    for (const c of [...held, ...full]) c.socket.destroy();
  });
});

/** One request's raw bytes over TLS to `port`, read until the server closes. */
function rawTlsTo(to: number, trusted: string, request: string): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = tlsConnect({ host: '127.0.0.1', port: to, ca: trusted });
    const chunks: Buffer[] = [];
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', () => undefined);
    socket.once('close', () => resolve(parseAnswer(Buffer.concat(chunks).toString('latin1'), true)));
    socket.write(request);
  });
}
