// Leases (issue 10, item 5; CONTRACTS §6): a handed-out job is never stranded. The jobs of a module that has
// gone (no poll in flight and none begun for module_gone_ms) come back to the queue, counting the hand-out;
// after three the job fails with a reason. Time is the injected clock: tests move it, they do not sleep.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { ServerResponse } from 'node:http';
import { RUNTIME, RUNTIMES, TOKEN, harness, oauthError, type Harness } from './helpers.js';

let h: Harness;
afterEach(() => h?.app.close());

describe('the jobs of a module that has gone come back', () => {
  it('when a poll arrives after module_gone_ms without one; a waiting execute is then answered', async () => {
    h = await harness({ moduleGoneMs: 1_000, pollTimeoutMs: 50 });
    const execute = h.execute();
    const first = await h.poll(); // the module takes the job ... and is never heard of again
    const jobId = first.json().computeModuleJobV1.jobId as string;
    h.clock.advance(999);
    expect((await h.poll()).statusCode).toBe(204); // not gone yet: the job stays with its module
    expect((await h.status(jobId)).type).toBe('inProgress');
    h.clock.advance(1_000); // the 204 poll above was the last sign of life
    const again = await h.poll(); // a module comes back
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
    h = await harness({ moduleGoneMs: 20, pollTimeoutMs: 50, executeTimeoutMs: 30_000 });
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

  it('when the poller abandoned its request after the answer was written (the issue\'s 180 of 500)', async () => {
    h = await harness({ moduleGoneMs: 1_000, pollTimeoutMs: 50 });
    const written = new Promise<void>((resolve) =>
      h.app.server.on('request', (_req, res: ServerResponse) => res.once('finish', () => resolve())),
    );
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const job = await h.submit();
    const socket = connect((h.app.server.address() as AddressInfo).port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write(`GET ${RUNTIMES}/${RUNTIME}/job HTTP/1.1\r\nHost: x\r\nModule-Auth-Token: ${TOKEN}\r\n\r\n`);
    await written; // the answer left the server ...
    socket.destroy(); // ... and its poller never read it
    expect((await h.status(job.id)).type).toBe('inProgress');
    h.clock.advance(1_000);
    const again = await h.poll();
    expect(again.json().computeModuleJobV1.jobId).toBe(job.id);
  });
});
