// Behaviour that needs a real socket: a poller that disconnects, and a chunked result body.
import { afterEach, describe, expect, it } from 'vitest';
import { request, type ClientRequest, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { ADDER, MUX, RUNTIME, RUNTIMES, TOKEN, harness, type Harness } from './helpers.js';

let h: Harness;
afterEach(() => h?.app.close());

async function listen(): Promise<{ port: number; serverSockets: Socket[] }> {
  const serverSockets: Socket[] = [];
  h.app.server.on('connection', (socket: Socket) => serverSockets.push(socket));
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  return { port: (h.app.server.address() as AddressInfo).port, serverSockets };
}

/** Starts a poll over a real connection; resolves once the server holds it. */
async function startPoll(port: number, markerJobId: string): Promise<{ req: ClientRequest; received: string[] }> {
  const received: string[] = [];
  const req = request({ host: '127.0.0.1', port, path: `${RUNTIMES}/${RUNTIME}/job`, headers: { 'module-auth-token': TOKEN } }, (res) => {
    res.on('data', (d) => received.push(String(d)));
  });
  req.on('error', () => undefined); // we destroy it on purpose
  req.end();
  await h.untilWaitingPolls(markerJobId, 1);
  return { req, received };
}

describe('a poller that disconnects takes no job with it', () => {
  it('when it is gone before the job arrives', async () => {
    h = await harness({ pollTimeoutMs: 60_000 });
    const { port, serverSockets } = await listen();
    const marker = await h.submit();
    await h.poll();
    const { req, received } = await startPoll(port, marker.id);
    const closed = new Promise((resolve) => serverSockets.at(-1)!.once('close', resolve));
    req.destroy();
    await closed;
    expect((await h.inspect(marker.id)).runtime.waitingPolls).toBe(0);
    const job = await h.submit();
    const next = await h.poll();
    expect(next.json().computeModuleJobV1.jobId).toBe(job.id);
    expect((await h.inspect(job.id)).job.handOuts).toBe(1);
    expect(received).toEqual([]);
  });

  it('when the job is handed out in the same moment it disconnects', async () => {
    h = await harness({ pollTimeoutMs: 60_000 });
    const { port } = await listen();
    const marker = await h.submit();
    await h.poll();
    const { req } = await startPoll(port, marker.id);
    req.destroy();
    const job = await h.submit(); // races the server noticing the disconnect
    const next = await h.poll();
    expect(next.statusCode).toBe(200);
    expect(next.json().computeModuleJobV1.jobId).toBe(job.id);
    // Whether the vanished poll claimed it first or not, that claim was taken back and not counted.
    expect((await h.inspect(job.id)).job.handOuts).toBe(1);
  });
});

describe('listeners on the response of a poll', () => {
  it('a poll that hands out a job listens for close and finish once, as one that answers 204 does', async () => {
    h = await harness({ pollTimeoutMs: 50 });
    // Counted as the response finishes, before any once-listener for close has fired and gone.
    const counts: Array<{ close: number; finish: number }> = [];
    h.app.server.on('request', (_req, res: ServerResponse) =>
      res.prependOnceListener('finish', () => counts.push({ close: res.listenerCount('close'), finish: res.listenerCount('finish') })),
    );
    const { port } = await listen();
    const poll = () =>
      new Promise<number>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: `${RUNTIMES}/${RUNTIME}/job`, headers: { 'module-auth-token': TOKEN } }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode!));
        });
        req.on('error', reject);
        req.end();
      });
    expect(await poll()).toBe(204);
    await h.submit();
    expect(await poll()).toBe(200);
    expect(counts).toHaveLength(2);
    expect(counts[1]).toEqual(counts[0]);
  });
});

describe('a synchronous execute whose client disconnects', () => {
  it('stops waiting; its job stays and can still be answered and fetched', async () => {
    h = await harness({ pollTimeoutMs: 60_000, executeTimeoutMs: 60_000 });
    const { port, serverSockets } = await listen();
    const req = request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: `${MUX}/compute-modules/jobs/execute`,
      headers: { ...h.auth, 'content-type': 'application/json' },
    });
    req.on('error', () => undefined);
    req.end(JSON.stringify({ deployedAppRid: ADDER, queryType: 'add', query: { a: 1, b: 1 } }));
    const poll = await h.poll(); // held until the execute's job is queued: then the execute is waiting
    const { jobId } = poll.json().computeModuleJobV1;
    const closed = new Promise((resolve) => serverSockets.at(-1)!.once('close', resolve));
    req.destroy();
    await closed;
    expect((await h.status(jobId)).type).toBe('inProgress');
    expect((await h.postResult(jobId, '2')).statusCode).toBe(200);
    expect((await h.resultV2(jobId)).body).toBe('2');
  });
});

describe('a chunked result body', () => {
  it('is stored whole, exactly', async () => {
    h = await harness();
    const { port } = await listen();
    const job = await h.submit();
    await h.poll();
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: `${RUNTIMES}/${RUNTIME}/results/${job.id}`,
          headers: { 'module-auth-token': TOKEN, 'content-type': 'application/octet-stream' },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode!));
        },
      );
      req.on('error', reject);
      expect(req.getHeader('content-length')).toBeUndefined(); // so Node sends Transfer-Encoding: chunked
      req.write('{"part":1,');
      setImmediate(() => {
        req.write('"part":2}');
        req.end();
      });
    });
    expect(status).toBe(200);
    expect((await h.resultV2(job.id)).body).toBe('{"part":1,"part":2}');
  });
});
