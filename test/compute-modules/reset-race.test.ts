// Control resets racing executes and polls (issue 10, item 14). A reset wakes every waiter, then clears the
// store: a request that began waiting in between would wait on state that is gone. These tests open that
// window on purpose (the store is wrapped so that the pieces land in the worst order) and race many more.
import { afterEach, describe, expect, it } from 'vitest';
import { ADDER, harness, oauthError, type Harness } from './helpers.js';

let h: Harness;
afterEach(() => h?.app.close());

const reset = () => h.app.inject({ method: 'POST', url: '/_emulate/platform/reset' });

/** A promise and the function that resolves it. */
function signal(): { promise: Promise<void>; fire: () => void } {
  let fire!: () => void;
  const promise = new Promise<void>((resolve) => (fire = resolve));
  return { promise, fire };
}

describe('a reset racing an execute', () => {
  it('an execute that subscribed after the waiters were woken and queued before the clear is answered at once', async () => {
    h = await harness({ executeTimeoutMs: 3_000 });
    const clearing = signal();
    const inserted = signal();
    const apps = h.store.computeModules;
    const lookUp = apps.deployedApp.bind(apps);
    let held = false;
    apps.deployedApp = async (rid, branch) => {
      const found = await lookUp(rid, branch);
      if (!held) {
        held = true;
        await clearing.promise; // the execute goes on only once the reset has woken the waiters and begun to clear
      }
      return found;
    };
    const jobsRepo = h.store.computeModuleJobs;
    const insert = jobsRepo.insert.bind(jobsRepo);
    jobsRepo.insert = async (job) => {
      await insert(job);
      inserted.fire();
    };
    // A reset clears and reseeds in one step (store.resetWith).
    const resetWith = h.store.resetWith.bind(h.store);
    h.store.resetWith = async <T>(apply: () => Promise<T>): Promise<T> => {
      clearing.fire();
      await inserted.promise; // the clear lands after the execute queued its job
      return resetWith(apply);
    };
    const execute = h.execute();
    expect((await reset()).statusCode).toBe(200);
    // Before: it waited out execute_timeout_ms (504) for a job the clear had thrown away.
    expect(oauthError(await execute, 404, 'not_found').error_description).toContain('reset');
  });

  // On PostgreSQL this found two faults of overlapping resets (test/postgres/transactions.test.ts): it failed
  // about one run in four, and once ended the process with an uncaught connection error.
  it('many executes and resets at once, with a module answering: every execute is answered, none waits out its timeout', async () => {
    h = await harness({ executeTimeoutMs: 60_000, pollTimeoutMs: 100 });
    let running = true;
    const module = async () => {
      while (running) {
        const poll = await h.poll();
        if (poll.statusCode === 200) await h.postResult(poll.json().computeModuleJobV1.jobId, 'done');
      }
    };
    const modules = [module(), module()];
    const started = Date.now();
    const executes: Array<Promise<{ statusCode: number }>> = [];
    const resets: Array<Promise<{ statusCode: number }>> = [];
    // Each execute's own wait, so that the bound below is per call, whatever the resets cost in all.
    const waits: number[] = [];
    const timed = (round: number) => {
      const at = Date.now();
      return h.execute({ deployedAppRid: ADDER, queryType: 'q', query: { round } }).then((answer) => (waits.push(Date.now() - at), answer));
    };
    for (let round = 0; round < 20; round++) {
      executes.push(timed(round));
      resets.push(reset());
      executes.push(timed(round));
    }
    const answers = (await Promise.all(executes)) as Array<{ statusCode: number; body: string }>;
    running = false;
    await Promise.all([...modules, ...resets]);
    // 401 is a correct answer too: a reset wipes the token the executes carry; whether one lands before an
    // execute's token check depends on the store's timing (it does on PostgreSQL).
    // With the body, so that an unexpected answer says what it was.
    expect(answers.filter((r) => r.statusCode !== 200 && r.statusCode !== 404 && r.statusCode !== 401).map((r) => `${r.statusCode} ${r.body}`)).toEqual([]);
    // Every execute answered well before the execute timeout (60 s): none was left to wait it out. Per call, not a
    // speed target: on PostgreSQL each reset is one transaction that submits queue behind, so 20 resets in a row
    // take about 17 s in all on a loaded 2-core machine without any call waiting its timeout out.
    expect(Math.max(...waits)).toBeLessThan(45_000);
    expect(Date.now() - started).toBeLessThan(45_000);
  }, 90_000);
});
