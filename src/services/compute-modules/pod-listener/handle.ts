// Where the public app and the pod listener meet: the compute-module routes put their JobService here, and
// startServer (src/main.ts) puts here how to start (once) the pod listener with it, for the session route.
import type { JobService } from '../jobs.js';
import type { PodListener } from '../../../pod-app.js';

export interface PodRuntimeHandle {
  /** Set when the compute-module routes are registered. */
  jobs?: JobService;
  /** Starts the listener on first call, then returns the same one. Set by startServer; absent for an app that is only injected into (tests). */
  listener?: () => Promise<PodListener>;
  /**
   * The emulator's TLS listener (docs/tls.md), when it runs one: run-module adds its CA to the module's
   * DEFAULT_CA_PATH, so that the Python SDK's HTTPS token call reaches it (docs/functions.md). Set by startServer.
   */
  publicTls?: { url: string; caCertificate: string };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The in-pod runtime listener's side of the app (docs/contracts.md §10). */
    podRuntime: PodRuntimeHandle;
  }
}

export const newPodRuntimeHandle = (): PodRuntimeHandle => ({});
