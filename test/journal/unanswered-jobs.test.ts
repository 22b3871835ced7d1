// A job that no function of its module answers is visible as such (issue 13): a warning log line, a note on the
// journal entry of the poll that handed it out, and a note on the job's inspection; likewise a result in the
// runtime SDK's failure shape.
import { describe, expect, it } from 'vitest';
import { ADDER, RUNTIME, RUNTIMES, TOKEN, harness } from '../compute-modules/helpers.js';
import { captureLog } from './helpers.js';

describe('jobs no function answers', () => {
  it('a job whose query type the posted schemas do not name: warned, noted in the journal and the inspection', async () => {
    const log = captureLog();
    const h = await harness({ logDestination: log as unknown as NodeJS.WritableStream });
    const schemas = await h.app.inject({
      method: 'POST',
      url: `${RUNTIMES}/${RUNTIME}/schemas`,
      headers: { 'module-auth-token': TOKEN },
      payload: [{ functionName: 'add' }, { functionName: 'sub' }],
    });
    expect(schemas.statusCode).toBe(200);
    const job = await h.submit({ deployedAppRid: ADDER, deployedAppBranch: 'master', queryType: 'multiply', query: {} });
    const poll = await h.poll();
    expect(poll.statusCode).toBe(200);
    const expected = 'No function of the module answers the query type "multiply": its posted schemas name "add", "sub".';
    const [entry] = h.app.journal.list({ path: `${RUNTIMES}/${RUNTIME}/job` });
    expect(entry).toMatchObject({ status: 200, reason: expect.stringContaining(expected) });
    expect(log.parsed().find((l) => l.level === 40 && l.jobId === job.id)).toMatchObject({ msg: expect.stringContaining(expected), queryType: 'multiply' });
    expect((await h.inspect(job.id)).note).toContain(expected);

    // A job of a function it has: no note anywhere.
    const fine = await h.submit({ deployedAppRid: ADDER, deployedAppBranch: 'master', queryType: 'add', query: {} });
    await h.poll();
    expect(h.app.journal.list({ limit: 1 })[0]!.reason).toBeUndefined();
    expect((await h.inspect(fine.id)).note).toBeUndefined();
  });

  it('a result in the SDK failure shape: warned, noted in the journal and the inspection', async () => {
    const log = captureLog();
    const h = await harness({ logDestination: log as unknown as NodeJS.WritableStream });
    const job = await h.submit();
    await h.poll();
    const posted = await h.postResult(job.id, JSON.stringify({ error: 'TypeError', reason: 'a is not a number' }), { 'content-type': 'application/json' });
    expect(posted.statusCode).toBe(200);
    const expected = 'The module answered with the runtime SDK\'s failure shape (its function threw): error "TypeError", reason "a is not a number".';
    expect(h.app.journal.list({ limit: 1 })[0]).toMatchObject({ method: 'POST', status: 200, reason: expect.stringContaining(expected) });
    expect(log.parsed().some((l) => l.level === 40 && String(l.msg).includes(expected))).toBe(true);
    expect((await h.inspect(job.id)).note).toContain(expected);
    // An ordinary JSON result is no failure.
    const other = await h.submit();
    await h.poll();
    await h.postResult(other.id, JSON.stringify({ error: 'none', value: 5 }), { 'content-type': 'application/json' });
    expect((await h.inspect(other.id)).note).toBeUndefined();
  });

  it('the module auth token refusals say which: missing, or not the current one', async () => {
    const h = await harness();
    await h.app.inject({ url: `${RUNTIMES}/${RUNTIME}/job` });
    await h.poll('module-token-wrong-0000');
    const [wrong, missing] = h.app.journal.list({ refusals: true });
    expect(missing!.reason).toBe(`No Module-Auth-Token header; the routes of runtime "${RUNTIME}" expect the token its session answered.`);
    expect(wrong!.reason).toBe(`The Module-Auth-Token is not the current token of runtime "${RUNTIME}" (a session reset rotates it).`);
  });
});
