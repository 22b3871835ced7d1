// On a real socket: what the HTTP layer refuses before any route runs (malformed framing, oversize headers,
// unknown methods, CONNECT, an unmet Expect) is answered in the family's envelope with `Connection: close`,
// and a keep-alive client's next request does not fail (issue 10, items 10 and 11).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildTestApp } from '../helpers/app.js';
import { rawExchange, type RawAnswer } from './raw-socket.js';

let app: FastifyInstance;
let port: number;
beforeAll(async () => {
  ({ app } = await buildTestApp());
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as AddressInfo).port;
});
afterAll(() => app.close());

const get = (path: string, extra = '') => `GET ${path} HTTP/1.1\r\nHost: localhost\r\n${extra}\r\n`;

function expectPlatform(answer: RawAnswer, status: number): void {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(answer.body);
  expect(Object.keys(body).sort()).toEqual(['errorCode', 'errorDescription', 'errorInstanceId', 'errorName', 'parameters']);
  expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
}

function expectOAuth(answer: RawAnswer, status: number, error = 'invalid_request'): void {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(answer.body);
  expect(Object.keys(body).sort()).toEqual(['error', 'error_description']);
  expect(body.error).toBe(error);
}

function expectClosedSayingSo(answer: RawAnswer): void {
  expect(answer.headers.connection).toBe('close');
  expect(answer.closed).toBe(true);
  expect(answer.body).not.toMatch(/FST_|"statusCode"|Client Error/);
}

describe('refusals of the HTTP layer', () => {
  it('a 17 KB header is 431 in the family envelope', async () => {
    const big = `X-Big: ${'a'.repeat(17_000)}\r\n`;
    const platform = await rawExchange(port, get('/api/v2/admin/users/getCurrent', big));
    expectPlatform(platform, 431);
    expectClosedSayingSo(platform);
    const oauth = await rawExchange(port, get('/idp/api/oauth2/token', big));
    expectOAuth(oauth, 431);
    expectClosedSayingSo(oauth);
  });

  it('an unknown method is 400 in the family envelope', async () => {
    const platform = await rawExchange(port, 'FOO /api/v2/ontologies HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expectPlatform(platform, 400);
    expectClosedSayingSo(platform);
    const oauth = await rawExchange(port, 'FOO /%69dp/api/oauth2/token HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expectOAuth(oauth, 400);
    expectClosedSayingSo(oauth);
  });

  it.each([
    [
      'both Content-Length and Transfer-Encoding',
      'POST /api/v2/ontologies HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    ],
    ['a bad chunk size', 'POST /_emulate/platform/tokens HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n'],
    ['a header without a colon', 'GET /api/v2/ontologies HTTP/1.1\r\nHost: x\r\nnocolon\r\n\r\n'],
    ['not HTTP at all', 'HELLO THERE\r\n\r\n'],
    ['an HTTP/2 preface', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'],
  ])('malformed framing (%s) is 400 in the platform envelope', async (_name, request) => {
    const answer = await rawExchange(port, request);
    expectPlatform(answer, 400);
    expectClosedSayingSo(answer);
  });

  it('malformed framing under the compute-module prefix is 400 in the OAuth envelope', async () => {
    const answer = await rawExchange(
      port,
      'POST /_emulate/platform/compute-modules/runtimes HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
    );
    expectOAuth(answer, 400);
    expectClosedSayingSo(answer);
  });

  it('a Transfer-Encoding not ending in chunked is 400 and closes (its body has no knowable end)', async () => {
    const answer = await rawExchange(port, 'GET /idp/api/oauth2/token HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n');
    expectOAuth(answer, 400);
    expectClosedSayingSo(answer);
  });

  it('CONNECT is answered (not dropped) in the platform envelope', async () => {
    const answer = await rawExchange(port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expectPlatform(answer, 400);
    expectClosedSayingSo(answer);
  });

  it('an Expect the service cannot meet is 417 in the family envelope', async () => {
    const answer = await rawExchange(port, get('/idp/api/oauth2/token', 'Expect: something-else\r\n'));
    expectOAuth(answer, 417);
  });

  it('a request without Host is served like any other', async () => {
    const answer = await rawExchange(port, 'GET /api/v2/nothing HTTP/1.1\r\n\r\n');
    expectPlatform(answer, 404);
  });

  it('HEAD refusals carry no body', async () => {
    const answer = await rawExchange(port, `HEAD /api/v2/x HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(17_000)}\r\n\r\n`);
    expect(answer.status).toBe(431);
    expect(Number(answer.headers['content-length'])).toBeGreaterThan(0);
    expect(answer.body).toBe('');
    expectClosedSayingSo(answer);
    const bad = await rawExchange(port, `HEAD /api/v2/%zz HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(bad.status).toBe(400);
    expect(bad.body).toBe('');
  });
});

describe('a keep-alive client', () => {
  it('sends its next request on a fresh connection after the server closed one', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const send = (path: string, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; connection?: string }>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port, path, agent, headers }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection }));
        });
        req.on('error', reject);
        req.end();
      });
    try {
      for (let round = 0; round < 20; round++) {
        const refused = await send('/api/v2/nothing', { 'x-big': 'a'.repeat(17_000) });
        expect(refused).toEqual({ status: 431, connection: 'close' });
        const next = await send('/_emulate/health');
        expect(next.status).toBe(200);
      }
    } finally {
      agent.destroy();
    }
  });
});
