// Where the public app and the pod listener meet: the compute-module routes put their JobService here, and
// startServer (src/main.ts) puts here how to start (once) the pod listener with it, for the session route. It
// stands below both routes/ and pod-listener/ (whose routes reuse routes/), so that each reads it downward.
import type { JobService } from './jobs.js';

/** The running in-pod listener as the session route hands it to a module; started by src/pod-app.ts. */
export interface PodListener {
  /** `https://127.0.0.1:{port}` */
  url: string;
  host: string;
  port: number;
  /** The CA certificate (PEM) a module trusts; public. Its key never left the process that made it. */
  caCertificate: string;
  /** The restart notification URI of a runtime (the SDK takes only its path). */
  restartNotificationUri(runtimeId: string): string;
  close(): Promise<void>;
}

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
