// A queued job wakes one waiting poll, not all of them (issue 10, item 8; docs/contracts.md §6). Counted through the
// store: every woken poll looks at the queue (claimNext) once.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { JobService } from '../../src/services/compute-modules/jobs.js';
import { Wakeups } from '../../src/services/compute-modules/wakeups.js';
import { createMemoryStore } from '../../src/store/memory-store.js';
import { ManualClock } from '../../src/clock.js';
import { harness, type Harness } from './helpers.js';

let h: Harness | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await h?.app.close();
  h = undefined;
});

/** Event-loop turns, no timer: long enough for every woken poll to have looked at the queue. */
const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('one queued job, one woken poll', () => {
  it('with three polls held, a job makes one of them look at the queue; the other two stay held', async () => {
    h = await harness({ pollTimeoutMs: 60_000 });
    const harnessed = h;
    const marker = await harnessed.submit();
    await harnessed.poll();
    const polls = [harnessed.poll(), harnessed.poll(), harnessed.poll()];
    await harnessed.untilWaitingPolls(marker.id, 3);
    const repo = harnessed.store.computeModuleJobs;
    const claim = repo.claimNext.bind(repo);
    let looks = 0;
    repo.claimNext = async (runtimeId, now) => {
      looks++;
      return claim(runtimeId, now);
    };
    const job = await harnessed.submit();
    const first = await Promise.race(polls);
    expect(first.json().computeModuleJobV1.jobId).toBe(job.id);
    await turns(20);
    expect(looks).toBe(1);
    expect((await harnessed.inspect(marker.id)).runtime.waitingPolls).toBe(2);
  });

  it('a woken poll whose client left passes the wake-up on to the next', async () => {
    const clock = new ManualClock();
    const store = createMemoryStore();
    await store.computeModules.insertRuntime({ runtimeId: 'rt', moduleAuthToken: 'token-0123456789' });
    await store.computeModules.insertDeployedApp({ deployedAppRid: 'ri.app', runtimeId: 'rt', branch: 'master', active: true });
    const settings = {
      pollTimeoutMs: 60_000,
      executeTimeoutMs: 60_000,
      retainedJobs: 10,
      maxResultBytes: 1024,
      moduleGoneMs: 30_000,
      maxQueuedJobs: 10,
      maxRetainedResultBytes: 1024,
      podListenerPort: 0,
    };
    const jobs = new JobService({ store, clock, settings });
    const [left, stays] = [new AbortController(), new AbortController()];
    const first = jobs.poll('rt', left.signal);
    await turns(5);
    const second = jobs.poll('rt', stays.signal);
    await turns(5);
    expect(jobs.waitingPolls('rt')).toBe(2);
    // The first poll is woken, and its client leaves before it gets to look.
    const notifyOne = Wakeups.prototype.notifyOne;
    vi.spyOn(Wakeups.prototype, 'notifyOne').mockImplementationOnce(function (this: Wakeups<unknown>, key, value) {
      const woke = notifyOne.call(this, key, value);
      left.abort();
      return woke;
    });
    const job = await jobs.submit({ deployedAppRid: 'ri.app', queryType: 'q' });
    expect(await first).toBeUndefined();
    expect((await second)?.jobId).toBe(job.jobId);
    jobs.interruptForShutdown();
  });
});
