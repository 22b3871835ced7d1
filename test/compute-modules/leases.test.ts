// Leases (issue 10, item 5; docs/contracts.md §6): a handed-out job is never stranded. The jobs of a module that has
// gone (no poll in flight and none begun for module_gone_ms) come back to the queue, counting the hand-out;
// after three the job fails with a reason. Time is the injected clock: tests move it, they do not sleep.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { ServerResponse } from 'node:http';
import { RUNTIME, RUNTIMES, TOKEN, harness, oauthError, type Harness } from './helpers.js';

let h: Harness;
afterEach(() => h?.app.close());

/** Open connections on the listening server. */
const connections = () => new Promise<number>((resolve) => h.app.server.getConnections((_err, n) => resolve(n)));

describe('the jobs of a module that has gone come back', () => {
  it('when a poll arrives after module_gone_ms without one; a waiting execute is then answered', async () => {
    h = await harness({ moduleGoneMs: 1_000 }); // polls held long: each one below finds or awaits a job
    const execute = h.execute();
    const first = await h.poll(); // the module takes the job ... and is never heard of again
    const jobId = first.json().computeModuleJobV1.jobId as string;
    h.clock.advance(999);
    const other = await h.submit();
    expect((await h.poll()).json().computeModuleJobV1.jobId).toBe(other.id); // not gone yet: the job stays with its module
    expect((await h.status(jobId)).type).toBe('inProgress');
    h.clock.advance(1_000); // the poll above was the last sign of life
    const again = await h.poll(); // a module comes back: the older job first
    expect(again.json().computeModuleJobV1.jobId).toBe(jobId);
    expect((await h.inspect(jobId)).job.handOuts).toBe(2);
    await h.postResult(jobId, '5');
    const answered = await execute;
    expect(answered.statusCode).toBe(200);
    expect(answered.body).toBe('5');
  });

  it('not while a poll of the runtime is in flight', async () => {
    h = await harness({ moduleGoneMs: 1_000, pollTimeoutMs: 60_000 });
    const marker = await h.submit();
    await h.poll(); // hands out the marker
    void h.poll(); // held: a poll in flight
    await h.untilWaitingPolls(marker.id, 1);
    h.clock.advance(5_000);
    void h.poll(); // would bring the marker back if the module counted as gone
    await h.untilWaitingPolls(marker.id, 2);
    expect((await h.status(marker.id)).type).toBe('inProgress');
    expect((await h.inspect(marker.id)).job.handOuts).toBe(1);
  });

  it('by a timer when no module comes back; after three hand-outs the job fails and its execute answers', async () => {
    h = await harness({ moduleGoneMs: 20, executeTimeoutMs: 30_000 });
    const execute = h.execute();
    let jobId = '';
    for (let handOut = 1; handOut <= 3; handOut++) {
      const poll = await h.poll();
      jobId = poll.json().computeModuleJobV1.jobId;
      h.clock.advance(20);
      if (handOut < 3) await vi.waitFor(async () => expect((await h.status(jobId)).type).toBe('queued'), { timeout: 5_000, interval: 5 });
    }
    const failed = oauthError(await execute, 409, 'job_failed');
    expect(failed.error_description).toContain('handed out 3 times');
    expect(failed.error_description).toContain('stopped polling');
    expect((await h.inspect(jobId)).job.handOuts).toBe(3);
  });

  it("when the poller abandoned its request after the answer was written (the issue's 180 of 500)", async () => {
    h = await harness({ moduleGoneMs: 1_000, pollTimeoutMs: 50 });
    const written = new Promise<void>((resolve) => h.app.server.on('request', (_req, res: ServerResponse) => res.once('finish', () => resolve())));
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const job = await h.submit();
    const socket = connect((h.app.server.address() as AddressInfo).port, '127.0.0.1');
    socket.on('error', () => undefined);
    const received = new Promise((resolve) => socket.once('data', resolve));
    socket.write(`GET ${RUNTIMES}/${RUNTIME}/job HTTP/1.1\r\nHost: x\r\nModule-Auth-Token: ${TOKEN}\r\n\r\n`);
    await written; // the answer left the server ...
    await received; // ... reached the poller's socket ...
    socket.destroy(); // ... which closes cleanly, and the module is never heard of again
    await vi.waitFor(async () => expect(await connections()).toBe(0));
    expect((await h.status(job.id)).type).toBe('inProgress');
    h.clock.advance(1_000);
    const again = await h.poll();
    expect(again.json().computeModuleJobV1.jobId).toBe(job.id);
  });
});

describe('a poll answer written out but never read', () => {
  const POLL = `GET ${RUNTIMES}/${RUNTIME}/job HTTP/1.1\r\nHost: x\r\nModule-Auth-Token: ${TOKEN}\r\n\r\n`;

  async function listening(): Promise<{ port: number; written: () => Promise<void> }> {
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    // Resolves once the next answer has left the server.
    const written = () => new Promise<void>((resolve) => h.app.server.once('request', (_req, res: ServerResponse) => res.once('finish', () => resolve())));
    return { port: (h.app.server.address() as AddressInfo).port, written };
  }

  /** One poll over a raw connection; resolves once its answer left the server (and, with `read`, arrived). */
  async function pollOnce(port: number, written: () => Promise<void>, read = false) {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    const left = written();
    const received = read ? new Promise((resolve) => socket.once('data', resolve)) : undefined;
    socket.write(POLL);
    await left;
    await received;
    return socket;
  }

  it('goes back to the queue when its connection is reset before the next poll on it, counted, and fails after 3 such cuts', async () => {
    h = await harness({ pollTimeoutMs: 50 });
    const { port, written } = await listening();
    const job = await h.submit();
    for (let attempt = 1; attempt <= 2; attempt++) {
      const socket = await pollOnce(port, written);
      expect((await h.status(job.id)).type).toBe('inProgress');
      socket.resetAndDestroy(); // a socket closed with unread bytes in its buffers answers with a RST
      await vi.waitFor(async () => expect((await h.status(job.id)).type).toBe('queued'), { timeout: 5_000, interval: 5 });
      expect((await h.inspect(job.id)).job.handOuts).toBe(attempt); // a cut answer is a hand-out (issue 25)
    }
    // The third cut answer ends it, rather than letting it cycle for ever.
    const socket = await pollOnce(port, written);
    socket.resetAndDestroy();
    await vi.waitFor(async () => expect((await h.status(job.id)).type).toBe('failed'), { timeout: 5_000, interval: 5 });
    expect((await h.inspect(job.id)).job.handOuts).toBe(3);
    expect(JSON.stringify(await h.status(job.id))).toContain('cut off');
  });

  it('stays with its poller when the connection closes normally, or once the next poll arrived on it', async () => {
    h = await harness({ pollTimeoutMs: 50 });
    const { port, written } = await listening();
    const closedNormally = await h.submit();
    const socket = await pollOnce(port, written, true);
    socket.destroy(); // read, then an ordinary close (FIN)
    const readOn = await h.submit();
    const second = await pollOnce(port, written, true);
    const next = written();
    second.write(POLL); // the client read the answer and polls again on the same connection (204 after the hold)
    await next;
    second.resetAndDestroy();
    await vi.waitFor(async () => expect(await connections()).toBe(0));
    await new Promise((resolve) => setImmediate(resolve));
    expect((await h.status(closedNormally.id)).type).toBe('inProgress');
    expect((await h.status(readOn.id)).type).toBe('inProgress');
  });
});
