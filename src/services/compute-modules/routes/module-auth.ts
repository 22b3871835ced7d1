// Who may call a runtime's module routes (docs/contracts.md §6), on the public port and on the in-pod runtime listener
// alike: the runtime (and job) must exist, then the Module-Auth-Token must be the runtime's, compared in
// constant time; all before any body is read. Ids and tokens have a shape (issue 10, items 6 and 12).
import type { FastifyRequest } from 'fastify';
import { Type } from '@fastify/type-provider-typebox';
import type { JobRecord, RuntimeRecord, Store } from '../../../store/store.js';
import { safeEqual } from '../../../http/auth.js';
import { invalidModuleAuthToken, invalidRequest, quote, resourceNotFound } from '../../../errors.js';

// The shapes docs/contracts.md §6 gives: a runtime id goes into URIs and paths, a token into a header.
const RUNTIME_ID = '^[A-Za-z0-9._:-]{1,128}$';
const MODULE_AUTH_TOKEN = '^[!-~]{16,512}$';
export const RuntimeId = Type.String({ pattern: RUNTIME_ID });
export const ModuleAuthToken = Type.String({ pattern: MODULE_AUTH_TOKEN });
const runtimeIdShape = new RegExp(RUNTIME_ID);

export const RuntimeParams = Type.Object({ runtimeId: Type.String({ minLength: 1 }) });
export const JobParams = Type.Object({ runtimeId: Type.String({ minLength: 1 }), jobId: Type.String({ minLength: 1 }) });

/** The runtime, and the job when one is named, or 404 not_found. */
export async function lookUp(store: Store, runtimeId: string, jobId?: string): Promise<{ runtime: RuntimeRecord; job?: JobRecord }> {
  const runtime = await store.computeModules.runtime(runtimeId);
  if (!runtime) throw resourceNotFound(`Runtime ${quote(runtimeId)} was not found.`);
  if (jobId === undefined) return { runtime };
  const job = await store.computeModuleJobs.byId(jobId);
  if (!job || job.runtimeId !== runtimeId) throw resourceNotFound(`Job ${quote(jobId)} was not found on runtime ${quote(runtimeId)}.`);
  return { runtime, job };
}

/**
 * Unknown runtime (or job) 404 first, then the Module-Auth-Token: all before any body is read. A runtime id of
 * the wrong shape is 400 invalid_request, unless a runtime has it: a seed is not held to the shapes, and its
 * runtimes must keep working. A token is only ever right or wrong (401, docs/contracts.md §6), whatever its shape:
 * a seeded runtime's short token, rotated away by a session reset, is a wrong token, not a malformed request.
 */
export function moduleAuth(store: Store) {
  return async (request: FastifyRequest) => {
    const { runtimeId, jobId } = request.params as { runtimeId: string; jobId?: string };
    if (!runtimeIdShape.test(runtimeId) && !(await store.computeModules.runtime(runtimeId))) {
      throw invalidRequest(`The runtime id ${quote(runtimeId)} is not 1-128 characters of A-Z, a-z, 0-9, ".", "_", ":" and "-".`);
    }
    const { runtime } = await lookUp(store, runtimeId, jobId);
    const presented = request.headers['module-auth-token'];
    if (typeof presented !== 'string')
      throw invalidModuleAuthToken().because(`No Module-Auth-Token header; the routes of runtime ${quote(runtimeId)} expect the token its session answered.`);
    if (!safeEqual(presented, runtime.moduleAuthToken)) {
      throw invalidModuleAuthToken().because(`The Module-Auth-Token is not the current token of runtime ${quote(runtimeId)} (a session reset rotates it).`);
    }
  };
}
