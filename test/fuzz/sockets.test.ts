// Property-based fuzzing over a real socket, for what inject cannot send: odd methods and versions, raw bytes
// in the target, oversize and malformed headers, broken framing, Expect. Each answer must meet the contract
// (test/fuzz/oracle.ts), and the connection must be honest about its fate: with `Connection: close` the server
// closes it; without, the same socket serves a valid request next (a keep-alive client never meets a reset).
import net, { type AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildTestApp } from '../helpers/app.js';
import { checkAnswer, type Answer } from './oracle.js';
import { FUZZ_SEED, path, runs } from './requests.js';

let app: FastifyInstance;
let port: number;
beforeAll(async () => {
  ({ app } = await buildTestApp({ seed: { platform: { ...FUZZ_SEED.platform, limits: { request_timeout_ms: 1500, headers_timeout_ms: 1500 } } } }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as AddressInfo).port;
});
afterAll(() => app.close());

/** Reads HTTP/1.1 answers off one socket, one at a time. */
class Reader {
  private buffer = Buffer.alloc(0);
  closed = false;
  private wake: (() => void) | undefined;
  constructor(readonly socket: net.Socket) {
    socket.on('data', (d: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, d]);
      this.wake?.();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.closed = true;
      this.wake?.();
    });
  }

  private async until(ready: () => boolean, ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (!ready()) {
      if (this.closed || Date.now() > deadline) return ready();
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        setTimeout(resolve, 50);
      });
    }
    return true;
  }

  /** The next final answer (1xx skipped), or undefined when the server closed without one. */
  async next(method: string, ms = 4000): Promise<Answer | undefined> {
    for (;;) {
      if (!(await this.until(() => this.buffer.includes('\r\n\r\n'), ms))) return undefined;
      const end = this.buffer.indexOf('\r\n\r\n');
      const [statusLine, ...lines] = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) headers[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
      const status = Number(statusLine!.split(' ')[1]);
      this.buffer = this.buffer.subarray(end + 4);
      if (status >= 100 && status < 200) continue;
      let length = 0;
      if (method !== 'HEAD' && status !== 204 && status !== 304) {
        if (headers['content-length'] !== undefined) length = Number(headers['content-length']);
        else if (headers['transfer-encoding'] === 'chunked') {
          await this.until(() => this.buffer.includes('\r\n0\r\n\r\n') || this.buffer.subarray(0, 5).toString() === '0\r\n\r\n', ms);
          const text = this.buffer.toString('latin1');
          const stop = text.indexOf('0\r\n\r\n');
          this.buffer = this.buffer.subarray(stop + 5);
          return { status, headers, body: decodeChunked(text.slice(0, stop + 5)) };
        } else {
          await this.until(() => false, ms);
          length = this.buffer.length;
        }
      }
      await this.until(() => this.buffer.length >= length, ms);
      const body = this.buffer.subarray(0, length).toString('utf8');
      this.buffer = this.buffer.subarray(length);
      return { status, headers, body };
    }
  }
}

function decodeChunked(text: string): string {
  let out = '';
  let at = 0;
  for (;;) {
    const lineEnd = text.indexOf('\r\n', at);
    const size = Number.parseInt(text.slice(at, lineEnd), 16);
    if (!size) return out;
    out += text.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
}

const rawMethod = fc.constantFrom('GET', 'POST', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'FOO', 'G@T', 'CONNECT', 'PROPFIND', 'PURGE', 'get', 'POST');
const target = fc.oneof(
  { weight: 6, arbitrary: path },
  { weight: 1, arbitrary: fc.tuple(path, fc.constantFrom(' ', '\t', '\x01', '\x7f', 'é', '"', '<', '#frag')).map(([p, c]) => p + c + 'x') },
  { weight: 1, arbitrary: fc.constantFrom('*', 'example.com:443', 'http://localhost/idp/api/oauth2/token', '') },
);
const version = fc.constantFrom('HTTP/1.1', 'HTTP/1.1', 'HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1 extra', 'HTTX/1.1');
const extraHeaders = fc.array(
  fc.constantFrom(
    'Content-Type: application/json',
    'Content-Type: application/x-www-form-urlencoded',
    'Authorization: Bearer nope',
    'Expect: 100-continue',
    'Expect: nothing',
    `X-Big: ${'a'.repeat(17_000)}`,
    'NoColonHere',
    'Bad Name: x',
    'X-Folded: a\r\n b',
    'Connection: close',
    'Connection: keep-alive',
    'Host: other',
    'Transfer-Encoding: gzip',
    'X-Nul: a\x00b',
  ),
  { maxLength: 3 },
);
const framing = fc.constantFrom('none', 'none', 'length', 'length', 'chunked', 'bad-chunk', 'length+chunked', 'two-lengths', 'negative-length', 'nan-length');
const payload = fc.oneof(
  fc.constant('{"username":"admin"}'),
  fc.constant('grant_type=client_credentials'),
  fc.string({ maxLength: 40, unit: 'grapheme-ascii' }),
);

function frame(kind: string, body: string): { headers: string[]; bytes: string } {
  const n = Buffer.byteLength(body);
  switch (kind) {
    case 'length':
      return { headers: [`Content-Length: ${n}`], bytes: body };
    case 'chunked':
      return { headers: ['Transfer-Encoding: chunked'], bytes: n > 0 ? `${n.toString(16)}\r\n${body}\r\n0\r\n\r\n` : '0\r\n\r\n' };
    case 'bad-chunk':
      return { headers: ['Transfer-Encoding: chunked'], bytes: `zz\r\n${body}\r\n0\r\n\r\n` };
    case 'length+chunked':
      return { headers: [`Content-Length: ${n}`, 'Transfer-Encoding: chunked'], bytes: `${n.toString(16)}\r\n${body}\r\n0\r\n\r\n` };
    case 'two-lengths':
      return { headers: [`Content-Length: ${n}`, `Content-Length: ${n + 1}`], bytes: body };
    case 'negative-length':
      return { headers: ['Content-Length: -1'], bytes: body };
    case 'nan-length':
      return { headers: ['Content-Length: 1x'], bytes: body };
    default:
      return { headers: [], bytes: '' };
  }
}

const RUNS = runs(60);

describe('fuzzing the HTTP layer over a real socket', () => {
  it(`answers ${RUNS} raw requests within the contract, honest about keep-alive`, { timeout: Math.max(60_000, RUNS * 300) }, async () => {
    await fc.assert(
      fc.asyncProperty(rawMethod, target, version, extraHeaders, framing, payload, async (method, url, ver, extra, kind, body) => {
        const framed = frame(kind, body);
        const request = `${method} ${url} ${ver}\r\nHost: localhost\r\n${[...extra, ...framed.headers].map((h) => `${h}\r\n`).join('')}\r\n${framed.bytes}`;
        const socket = net.connect(port, '127.0.0.1');
        const reader = new Reader(socket);
        try {
          socket.write(request);
          const answer = await reader.next(method);
          if (!answer) {
            // Only a connection closed with nothing to say may end without an answer: none is such here.
            throw new Error(`no answer to ${JSON.stringify(request.slice(0, 120))}`);
          }
          // The oracle judges the target as the service reads it: up to the first byte that ends it.
          let end = 0;
          while (end < url.length && url.charCodeAt(end) > 0x20 && url.charCodeAt(end) !== 0x7f) end++;
          const seen = url.slice(0, end);
          checkAnswer(method, seen || '/', answer);
          if (String(answer.headers.connection).toLowerCase() === 'close') {
            await reader.next('GET', 3000);
            expect(reader.closed).toBe(true);
          } else {
            socket.write('GET /_emulate/health HTTP/1.1\r\nHost: localhost\r\n\r\n');
            const next = await reader.next('GET');
            // A request answered before its body was read (a bad path, an unknown route) is kept alive; when
            // that body then turns out malformed, the server can only close, silently: never answer unasked.
            const malformedBody = ['bad-chunk', 'negative-length', 'nan-length', 'two-lengths', 'length+chunked'].includes(kind);
            if (next === undefined && malformedBody && reader.closed) return;
            if (next?.status !== 200)
              throw new Error(`kept alive, but the next request got ${next ? next.status : 'no answer'} after ${JSON.stringify(request.slice(0, 120))}`);
          }
        } finally {
          socket.destroy();
        }
      }),
      { numRuns: RUNS, seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined },
    );
  });

  it('is healthy afterwards', async () => {
    const socket = net.connect(port, '127.0.0.1');
    const reader = new Reader(socket);
    socket.write('GET /_emulate/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    expect((await reader.next('GET'))?.status).toBe(200);
    socket.destroy();
  });
});
