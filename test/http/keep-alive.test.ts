// On a real socket: a bad body that was read in full is answered on a connection that stays open.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildTestApp } from '../helpers/app.js';

let app: FastifyInstance;
const agent = new http.Agent({ keepAlive: true });
let port: number;
beforeAll(async () => {
  ({ app } = await buildTestApp());
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  agent.destroy();
  await app.close();
});

function post(path: string, contentType: string, body: string): Promise<{ status: number; connection?: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method: 'POST', agent, headers: { 'content-type': contentType } }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('connections after bad bodies', () => {
  it('stay open after malformed or empty JSON, answered 400 InvalidArgument', async () => {
    for (const body of ['{"username": "admin", "scopes": [', '']) {
      const res = await post('/_emulate/platform/tokens', 'application/json', body);
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body).errorName).toBe('InvalidArgument');
      expect(res.connection).toBe('keep-alive');
    }
  });

  it('stay open after a form with a repeated parameter at the token endpoint, answered invalid_request', async () => {
    const res = await post('/idp/api/oauth2/token', 'application/x-www-form-urlencoded', 'grant_type=client_credentials&grant_type=password');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).error).toBe('invalid_request');
    expect(res.connection).toBe('keep-alive');
  });

  it('close after a body too large to have been read to its end', async () => {
    const res = await post('/_emulate/platform/tokens', 'application/json', `{"username":"${'a'.repeat(2 * 1024 * 1024)}"}`);
    expect(res.status).toBe(413);
    expect(res.connection).toBe('close');
  });
});
