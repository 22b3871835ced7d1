// A poll looks at the queue first and subscribes only when the look found nothing (jobs.ts). These tests act
// inside the look: the store's claimNext is wrapped so that something happens after the store answered and
// before the poll goes on, the moment where a wake-up could be lost.
import { afterEach, describe, expect, it } from 'vitest';
import type { JobRecord } from '../../src/store/store.js';
import { RUNTIME, harness, type Harness } from './helpers.js';

let h: Harness;
afterEach(() => h?.app.close());

type Claim = (runtimeId: string, now: number) => Promise<JobRecord | undefined>;

/** Runs `during` once, right after the store answers the first claim that satisfies `when`. */
function duringClaim(when: (found: JobRecord | undefined) => boolean, during: () => Promise<void>): void {
  const repo = h.store.computeModuleJobs;
  const claim: Claim = repo.claimNext.bind(repo);
  let done = false;
  repo.claimNext = async (runtimeId, now) => {
    const found = await claim(runtimeId, now);
    if (!done && when(found)) {
      done = true;
      await during();
    }
    return found;
  };
}

describe('a poll looks at the queue before it waits', () => {
  it('a poll that finds a job queued is never counted as waiting', async () => {
    // A hold far beyond the test's timeout: a poll that waited instead of taking the job fails the test.
    h = await harness({ pollTimeoutMs: 60_000 });
    const job = await h.submit();
    const waitingDuringLook: number[] = [];
    duringClaim(
      () => true,
      async () => void waitingDuringLook.push((await h.inspect(job.id)).runtime.waitingPolls),
    );
    const poll = await h.poll();
    expect(poll.json().computeModuleJobV1.jobId).toBe(job.id);
    expect(waitingDuringLook).toEqual([0]);
  });

  it('a job queued after the empty look and before the poll subscribes still reaches it at once', async () => {
    // Hold 2 s: a lost wake-up would end the poll by its hold, 204, instead of handing out the job.
    h = await harness({ pollTimeoutMs: 2_000 });
    let late: { id: string } | undefined;
    duringClaim(
      (found) => found === undefined,
      async () => void (late = await h.submit()),
    );
    const poll = await h.poll();
    expect(poll.statusCode).toBe(200);
    expect(poll.json().computeModuleJobV1.jobId).toBe(late!.id);
    expect((await h.inspect(late!.id)).job.handOuts).toBe(1);
  });

  it('a session reset during the empty look ends the poll; the job put back goes to the new session', async () => {
    // A hold beyond the test's timeout: the old poll must end by the reset, not by its hold.
    h = await harness({ pollTimeoutMs: 60_000 });
    const job = await h.submit();
    await h.poll(); // handed out: the reset will put it back
    let token = '';
    duringClaim(
      (found) => found === undefined,
      async () => void (token = (await h.openSession({ runtimeId: RUNTIME })).json().moduleAuthToken),
    );
    expect((await h.poll()).statusCode).toBe(204);
    expect((await h.status(job.id)).type).toBe('queued');
    const next = await h.poll(token);
    expect(next.json().computeModuleJobV1.jobId).toBe(job.id);
    expect((await h.inspect(job.id)).job.handOuts).toBe(2);
  });

  it('a session reset while the look claims a job ends the poll; the job is not handed to the old session', async () => {
    h = await harness({ pollTimeoutMs: 60_000 });
    const job = await h.submit();
    let token = '';
    duringClaim(
      (found) => found !== undefined,
      async () => void (token = (await h.openSession({ runtimeId: RUNTIME })).json().moduleAuthToken),
    );
    expect((await h.poll()).statusCode).toBe(204);
    expect((await h.status(job.id)).type).toBe('queued');
    const next = await h.poll(token);
    expect(next.json().computeModuleJobV1.jobId).toBe(job.id);
    expect((await h.inspect(job.id)).job.handOuts).toBe(2);
  });
});
