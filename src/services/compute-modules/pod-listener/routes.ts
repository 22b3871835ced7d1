// The runtime routes as the in-pod runtime answers them (docs/contracts.md §10), on the pod listener. The poll, schemas
// and results routes are the public port's own (module-routes.ts: same checks, leases and notes, same job
// service and store); what differs is what the platform's Python runtime SDK (foundry-compute-modules 0.34.0)
// counts as success:
// - a result post succeeds only on 204 (anything else is retried five times, then an error result is posted);
// - schemas: any status is accepted; 204 as the in-pod runtime answers;
// - the restart notification, POSTed once at start, must be 200 with a JSON array of job ids (strings) or the
//   module exits after five attempts; the jobs held by the replica that restarted go back to the queue
//   (those handed out on connections since closed: docs/compute-module-leases.md), not other replicas' jobs.
// No session or inspection routes here: those are the control side, on the public port.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Store } from '../../../store/store.js';
import type { ComputeModuleSettings } from '../settings.js';
import type { JobService } from '../jobs.js';
import { RUNTIMES_PREFIX } from '../policy.js';
import { RuntimeParams, moduleAuth } from '../routes/module-auth.js';
import { moduleRoutes } from '../routes/module.js';

export const RESTART_TAIL = 'restart';

export interface PodRouteDeps {
  store: Store;
  jobSettings: Readonly<ComputeModuleSettings>;
  jobs: JobService;
}

export async function podRoutes(pod: FastifyInstance, deps: PodRouteDeps): Promise<void> {
  const { store, jobs } = deps;
  moduleRoutes(pod, { ...deps, stored: 'noContent' });

  // Bodiless: the SDK sends no content type and no body.
  pod
    .withTypeProvider<TypeBoxTypeProvider>()
    .post(`${RUNTIMES_PREFIX}/:runtimeId/${RESTART_TAIL}`, { onRequest: moduleAuth(store), schema: { params: RuntimeParams } }, async (request) => {
      const ids = await jobs.requeueRestarted(request.params.runtimeId);
      request.log.info(
        { runtimeId: request.params.runtimeId, requeued: ids.length, jobIds: ids },
        "module restart notification: the restarted replica's jobs back in the queue",
      );
      return ids;
    });
}
