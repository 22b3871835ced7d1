// Shutdown (issue 25): what reaches the router while the server closes answers 503 in the route family's envelope
// (as when the store is away), never the framework's own `{"error":"Service Unavailable",...}` body.
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { harness, MUX, ADDER, RUNTIME } from '../compute-modules/helpers.js';

interface Open {
  socket: Socket;
  /** Everything the server sent until it closed the connection. */
  received: Promise<string>;
}

/** A connection with `text` written on it (headers still unfinished, so that the server keeps it open). */
function opened(port: number, text: string): Promise<Open> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(text);
      resolve({ socket, received });
    });
    let got = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (got += d));
    const received = new Promise<string>((done) => socket.on('close', () => done(got)));
    socket.on('error', reject);
  });
}

function parse(raw: string): { status: number; body: string } {
  const headEnd = raw.indexOf('\r\n\r\n');
  return { status: Number(raw.slice(9, 12)), body: raw.slice(headEnd + 4) };
}

describe('shutdown', () => {
  it('answers a held execute, and requests that arrive while closing, in their family envelope', async () => {
    const h = await harness({ executeTimeoutMs: 20_000 });
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = h.app.server.address() as AddressInfo;
    const auth = h.auth.authorization!;
    const body = JSON.stringify({ deployedAppRid: ADDER, queryType: 'add', query: {} });
    const execute = await opened(
      port,
      `POST ${MUX}/compute-modules/jobs/execute HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    // Half-sent requests: the rest of their headers arrives once the server is closing.
    const oauth = await opened(port, `GET ${MUX}/jobs/no-such-job/status HTTP/1.1\r\nHost: x\r\n`);
    const platform = await opened(port, `GET /api/v2/ontologies HTTP/1.1\r\nHost: x\r\n`);
    await vi.waitFor(async () => expect(await h.store.computeModuleJobs.listByRuntime(RUNTIME, 1)).toHaveLength(1), { timeout: 5_000, interval: 10 });

    const closed = h.app.close();
    await vi.waitFor(() => expect(h.app.server.listening).toBe(false), { timeout: 5_000, interval: 1 });
    oauth.socket.write(`Authorization: ${auth}\r\n\r\n`);
    platform.socket.write(`Authorization: ${auth}\r\n\r\n`);
    await closed;

    const held = parse(await execute.received);
    expect(held.status).toBe(503);
    expect(JSON.parse(held.body)).toMatchObject({ error: 'temporarily_unavailable' });
    const lateOAuth = parse(await oauth.received);
    expect(lateOAuth.status).toBe(503);
    expect(JSON.parse(lateOAuth.body)).toEqual({ error: 'temporarily_unavailable', error_description: expect.stringContaining('shutting down') });
    const latePlatform = parse(await platform.received);
    expect(latePlatform.status).toBe(503);
    expect(JSON.parse(latePlatform.body)).toMatchObject({
      errorCode: 'INTERNAL',
      errorName: 'ServiceUnavailable',
      errorDescription: expect.stringContaining('shutting down'),
    });
  });
});
