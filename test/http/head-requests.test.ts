// HEAD is answered by the GET route of its path (src/head-requests.ts), on a real socket: the GET's status
// and headers with no body, a HEAD where only other methods have routes is a 404, and the journal, faults and
// error messages see the method the client sent.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { bearer, buildTestApp, mintToken } from '../helpers/app.js';

let app: FastifyInstance;
let port: number;
let token: string;
beforeAll(async () => {
  ({ app } = await buildTestApp());
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as AddressInfo).port;
  token = await mintToken(app, 'admin', ['api:admin-read']);
});
afterAll(() => app.close());

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A raw request: fetch hides a body that a server wrongly sends after a HEAD answer. */
function send(method: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method, headers, agent: false }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const journal = async (): Promise<Array<{ method: string; path: string; status: number; reason?: string }>> =>
  ((await (await fetch(`http://127.0.0.1:${port}/_emulate/platform/journal?limit=5`)).json()) as { entries: never[] }).entries;

describe('HEAD requests', () => {
  it("answer with the GET route's status and headers, Content-Length included, and no body", async () => {
    const path = '/api/v2/admin/users/getCurrent';
    const get = await send('GET', path, bearer(token));
    const head = await send('HEAD', path, bearer(token));
    expect(get.status).toBe(200);
    expect(get.body.length).toBeGreaterThan(0);
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect((await journal())[0]).toMatchObject({ method: 'HEAD', path, status: 200 });
  });

  it('are refused as the GET would be, and name HEAD in the refusal', async () => {
    const path = '/api/v2/admin/users/getCurrent';
    const head = await send('HEAD', path);
    expect(head.status).toBe(401);
    expect(head.body).toBe('');
    expect((await journal())[0]).toMatchObject({ method: 'HEAD', path, status: 401 });
  });

  it('answer 404 where only other methods have a route, naming HEAD', async () => {
    const path = '/idp/api/oauth2/token'; // POST only
    const head = await send('HEAD', path);
    expect(head.status).toBe(404);
    expect(head.body).toBe('');
    const [entry] = await journal();
    expect(entry).toMatchObject({ method: 'HEAD', path, status: 404 });
    expect(entry!.reason).toContain('No route answers HEAD');
  });

  it('are matched by a fault armed for HEAD, and not by one armed for GET', async () => {
    const path = '/api/v2/admin/users/getCurrent';
    const arm = (method: string) =>
      fetch(`http://127.0.0.1:${port}/_emulate/platform/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ method, path, status: 503, times: 1 }),
      });
    expect((await arm('GET')).status).toBeLessThan(300);
    expect((await send('HEAD', path, bearer(token))).status).toBe(200);
    expect((await send('GET', path, bearer(token))).status).toBe(503);
    expect((await arm('HEAD')).status).toBeLessThan(300);
    const head = await send('HEAD', path, bearer(token));
    expect(head.status).toBe(503);
    expect(head.body).toBe('');
  });
});
