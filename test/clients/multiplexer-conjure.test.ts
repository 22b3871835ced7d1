// Conformance: the job routes driven through conjure-lite 0.7.3's conjureFetch, the transport of the
// platform's generated multiplexer client, with our path prefix; a real module answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conjureFetch, type ConjureContext } from 'conjure-lite';
import { APP_RID, startLiveModule, type LiveModule } from '../compute-modules/live.js';

let live: LiveModule;
let ctx: ConjureContext;
beforeAll(async () => {
  live = await startLiveModule();
  ctx = { baseUrl: live.emulator.url, servicePath: '/analytics-backend-multiplexer/api', tokenProvider: async () => live.token };
});
afterAll(() => live.stop());

interface Job {
  id: string;
  moduleId?: string | null;
  nodeId?: string | null;
  status: { type: string };
}
const request = (queryType: string, query: unknown) => ({ deployedAppRid: APP_RID, deployedAppBranch: 'master', queryType, query });
const OCTETS = 'application/octet-stream' as const;

/** What conjureFetch rejects with on an error status. */
async function conjureError(promise: Promise<unknown>): Promise<{ status: number; body: { error: string; error_description: string } }> {
  return promise.then(
    () => {
      throw new Error('expected a ConjureError');
    },
    (e: { status: number; body: { error: string; error_description: string } }) => e,
  );
}

describe('multiplexer through conjure-lite', () => {
  it('executeOnComputeModule and executeOnDeployedApp return the result as a Blob', async () => {
    const blob = await conjureFetch<Blob>(
      ctx,
      '/module-group-multiplexer/compute-modules/jobs/execute',
      'POST',
      request('add', { a: 20, b: 22 }),
      undefined,
      undefined,
      OCTETS,
    );
    expect(blob).toBeInstanceOf(Blob);
    expect(await blob.text()).toBe('42');
    const other = await conjureFetch<Blob>(
      ctx,
      '/module-group-multiplexer/deployed-apps/jobs/execute',
      'POST',
      request('add', { a: 1, b: 1 }),
      undefined,
      undefined,
      OCTETS,
    );
    expect(await other.text()).toBe('2');
  });

  it('submitToDeployedApp, getJobStatus, getJobStatusV2, getJobResultV2 and getJobResult', async () => {
    const job = await conjureFetch<Job>(ctx, '/module-group-multiplexer/deployed-apps/jobs', 'POST', request('greet', { name: 'Grace' }));
    expect(job).toMatchObject({ id: expect.any(String), moduleId: null, nodeId: null });
    await live.answered((method, url) => method === 'POST' && url.endsWith(`/results/${job.id}`));
    const status = await conjureFetch<{ type: string }>(ctx, `/module-group-multiplexer/jobs/${job.id}/status`, 'GET');
    expect(status).toEqual({ type: 'succeeded', succeeded: { intermediateJobInfoList: [] } });
    expect(await conjureFetch(ctx, '/module-group-multiplexer/jobs/status/v2', 'PUT', { ...job, status })).toEqual(status);
    const v2 = await conjureFetch<Blob>(ctx, '/module-group-multiplexer/jobs/result/v2', 'PUT', job, undefined, undefined, OCTETS);
    expect(await v2.text()).toBe(JSON.stringify('héllo Grace ✓'));
    const v1 = await conjureFetch<Blob>(ctx, `/module-group-multiplexer/jobs/${job.id}/result`, 'GET', undefined, undefined, undefined, OCTETS);
    expect(await v1.text()).toBe(JSON.stringify('héllo Grace ✓'));
  });

  it('cancelV2 (DELETE with a Job body) and cancel (DELETE by id, no body) answer 204', async () => {
    // The module has no listener for this query type, so the job stays in progress until canceled.
    for (const byId of [false, true]) {
      const job = await conjureFetch<Job>(ctx, '/module-group-multiplexer/deployed-apps/jobs', 'POST', request('unknownQuery', {}));
      const canceled = byId
        ? await conjureFetch(ctx, `/module-group-multiplexer/jobs/${job.id}`, 'DELETE')
        : await conjureFetch(ctx, '/module-group-multiplexer/jobs', 'DELETE', job);
      expect(canceled).toBeUndefined();
      const status = await conjureFetch<{ type: string }>(ctx, `/module-group-multiplexer/jobs/${job.id}/status`, 'GET');
      expect(status.type).toBe('canceled');
      const error = await conjureError(conjureFetch(ctx, '/module-group-multiplexer/jobs/result/v2', 'PUT', job, undefined, undefined, OCTETS));
      expect(error.status).toBe(409);
      expect(error.body.error).toBe('job_canceled');
    }
  });

  it('getComputeModuleSchemas lists what the module registered', async () => {
    const schemas = await conjureFetch<Array<{ functionName: string; issues: unknown[] }>>(ctx, '/module-group-multiplexer/schemas', 'GET', undefined, {
      rid: APP_RID,
      branch: 'master',
    });
    expect(schemas.map((s) => s.functionName).sort()).toEqual(['add', 'explode', 'greet']);
    expect(schemas.every((s) => Array.isArray(s.issues))).toBe(true);
  });

  it('surfaces errors as ConjureError with the OAuth envelope', async () => {
    const missing = await conjureError(
      conjureFetch(
        ctx,
        '/module-group-multiplexer/compute-modules/jobs/execute',
        'POST',
        { ...request('add', {}), deployedAppRid: 'ri.nope' },
        undefined,
        undefined,
        OCTETS,
      ),
    );
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'not_found', error_description: expect.stringContaining('ri.nope') });
    const unknownJob = await conjureError(conjureFetch(ctx, '/module-group-multiplexer/jobs/nope/status', 'GET'));
    expect(unknownJob.status).toBe(404);
    const anonymous = await conjureError(conjureFetch({ ...ctx, tokenProvider: undefined }, '/module-group-multiplexer/jobs/nope/status', 'GET'));
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ message: 'Requires authentication' });
  });
});
