// Shared arrangements for the compute-module tests: a seed with short holds, and small wrappers over inject.
import type { LightMyRequestResponse } from 'fastify';
import { bearer, buildTestApp, mintToken, type TestApp } from '../helpers/app.js';

export const RUNTIMES = '/_emulate/platform/compute-modules/runtimes';
export const MUX = '/analytics-backend-multiplexer/api/module-group-multiplexer';
export const ADDER = 'ri.foundry.main.deployed-app.adder';
export const RUNTIME = 'rt-1';
export const TOKEN = 'module-token-1';

export interface SeedOptions {
  pollTimeoutMs?: number;
  executeTimeoutMs?: number;
  retainedJobs?: number;
  maxResultBytes?: number;
  moduleGoneMs?: number;
  maxQueuedJobs?: number;
  maxRetainedResultBytes?: number;
  baseUrl?: string;
  /** Where the service logs at info level; silent without it. */
  logDestination?: NodeJS.WritableStream;
}

export function seed(o: SeedOptions = {}) {
  return {
    platform: {
      ...(o.baseUrl ? { base_url: o.baseUrl } : {}),
      compute_modules: {
        // Long by default: a poll that expects a job must never end by its hold on a busy machine.
        poll_timeout_ms: o.pollTimeoutMs ?? 10_000,
        execute_timeout_ms: o.executeTimeoutMs ?? 5_000,
        ...(o.retainedJobs !== undefined ? { retained_jobs: o.retainedJobs } : {}),
        ...(o.maxResultBytes !== undefined ? { max_result_bytes: o.maxResultBytes } : {}),
        ...(o.moduleGoneMs !== undefined ? { module_gone_ms: o.moduleGoneMs } : {}),
        ...(o.maxQueuedJobs !== undefined ? { max_queued_jobs: o.maxQueuedJobs } : {}),
        ...(o.maxRetainedResultBytes !== undefined ? { max_retained_result_bytes: o.maxRetainedResultBytes } : {}),
        runtimes: [
          { runtime_id: RUNTIME, module_auth_token: TOKEN },
          { runtime_id: 'rt-2', module_auth_token: 'module-token-2' },
        ],
        deployed_apps: [
          { deployed_app_rid: ADDER, runtime_id: RUNTIME },
          { deployed_app_rid: ADDER, runtime_id: 'rt-2', branch: 'feature' },
          { deployed_app_rid: 'ri.foundry.main.deployed-app.off', runtime_id: RUNTIME, active: false },
        ],
      },
    },
  };
}

type Reply = Promise<LightMyRequestResponse>;

export interface Harness extends TestApp {
  auth: Record<string, string>;
  poll(token?: string, runtimeId?: string): Reply;
  submit(body?: Record<string, unknown>): Promise<{ id: string; status: { type: string } }>;
  execute(body?: Record<string, unknown>): Reply;
  postResult(jobId: string, payload: string | Buffer, headers?: Record<string, string>, runtimeId?: string): Reply;
  status(jobId: string): Promise<{ type: string } & Record<string, unknown>>;
  resultV2(jobId: string): Reply;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test code reads nested fields freely
  inspect(jobId: string, runtimeId?: string): Promise<Record<string, any>>;
  openSession(body: Record<string, unknown>): Reply;
  /** Waits (bounded event-loop turns, no timer) until the runtime of `jobId` holds `count` polls. */
  untilWaitingPolls(jobId: string, count: number, runtimeId?: string): Promise<void>;
  /**
   * Starts a poll and resolves once the server holds it (its queue empty). A marker job is submitted and
   * handed out first, because a runtime's waiting polls are read through the inspection of one of its jobs.
   */
  heldPoll(runtimeId?: typeof RUNTIME | 'rt-2'): Promise<{ poll: Reply }>;
}

export async function harness(o: SeedOptions = {}): Promise<Harness> {
  const t = await buildTestApp({ seed: seed(o), ...(o.logDestination ? { logLevel: 'info', logDestination: o.logDestination } : {}) });
  const { app } = t;
  const auth = bearer(await mintToken(app));
  const jobBody = { deployedAppRid: ADDER, deployedAppBranch: 'master', queryType: 'add', query: { a: 2, b: 3 } };
  const self: Harness = {
    ...t,
    auth,
    poll: (token = TOKEN, runtimeId = RUNTIME) => app.inject({ method: 'GET', url: `${RUNTIMES}/${runtimeId}/job`, headers: { 'module-auth-token': token } }),
    async submit(body = jobBody) {
      const res = await app.inject({ method: 'POST', url: `${MUX}/deployed-apps/jobs`, headers: auth, payload: body });
      if (res.statusCode !== 200) throw new Error(`submit: ${res.statusCode} ${res.body}`);
      return res.json();
    },
    execute: (body = jobBody) => app.inject({ method: 'POST', url: `${MUX}/compute-modules/jobs/execute`, headers: auth, payload: body }),
    postResult: (jobId, payload, headers = { 'content-type': 'application/octet-stream' }, runtimeId = RUNTIME) =>
      app.inject({
        method: 'POST',
        url: `${RUNTIMES}/${runtimeId}/results/${jobId}`,
        headers: { 'module-auth-token': runtimeId === RUNTIME ? TOKEN : 'module-token-2', ...headers },
        payload,
      }),
    async status(jobId) {
      return (await app.inject({ method: 'GET', url: `${MUX}/jobs/${jobId}/status`, headers: auth })).json();
    },
    resultV2: (jobId) => app.inject({ method: 'PUT', url: `${MUX}/jobs/result/v2`, headers: auth, payload: { id: jobId } }),
    async inspect(jobId, runtimeId = RUNTIME) {
      return (await app.inject({ method: 'GET', url: `${RUNTIMES}/${runtimeId}/jobs/${jobId}` })).json();
    },
    openSession: (body) => app.inject({ method: 'POST', url: RUNTIMES, payload: body }),
    async untilWaitingPolls(jobId, count, runtimeId = RUNTIME) {
      for (let turn = 0; turn < 100_000; turn++) {
        const res = await app.inject({ method: 'GET', url: `${RUNTIMES}/${runtimeId}/jobs/${jobId}` });
        if (res.json().runtime.waitingPolls === count) return;
        await new Promise((resolve) => setImmediate(resolve));
      }
      throw new Error(`never saw ${count} waiting polls`);
    },
    async heldPoll(runtimeId = RUNTIME) {
      const [token, branch] = runtimeId === RUNTIME ? [TOKEN, 'master'] : ['module-token-2', 'feature'];
      const marker = await self.submit({ deployedAppRid: ADDER, deployedAppBranch: branch, queryType: 'marker' });
      await self.poll(token, runtimeId);
      const poll = self.poll(token, runtimeId);
      await self.untilWaitingPolls(marker.id, 1, runtimeId);
      return { poll };
    },
  };
  return self;
}

/** Asserts the OAuth envelope exactly and returns it. */
export function oauthError(res: { statusCode: number; json(): unknown }, status: number, error: string): { error: string; error_description: string } {
  const body = res.json() as Record<string, unknown>;
  if (res.statusCode !== status || body.error !== error || typeof body.error_description !== 'string' || Object.keys(body).length !== 2) {
    throw new Error(`expected ${status} ${error}, got ${res.statusCode} ${JSON.stringify(body)}`);
  }
  return body as { error: string; error_description: string };
}
