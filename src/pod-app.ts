// The in-pod runtime listener (docs/contracts.md §10): HTTPS on loopback, beside the public port, for modules written
// with the platform's Python runtime SDK, which speaks only HTTPS to `https://{RUNTIME_HOST}:{RUNTIME_PORT}`
// with the CA file it is given. Its own Fastify instance, sharing the public app's store and JobService, so a
// job submitted on the public port is taken by a module polling here (and the other way round).
import Fastify, { LogController, type FastifyInstance, type FastifyBaseLogger } from 'fastify';
import type { AddressInfo } from 'node:net';
import type { Store } from './store/store.js';
import type { Settings } from './settings.js';
import type { JobService } from './services/compute-modules/jobs.js';
import type { ComputeModuleSettings } from './services/compute-modules/settings.js';
import { installErrorRendering } from './http/render-error.js';
import { plainErrorLineWriter } from './http/error-log.js';
import { PathPolicies } from './http/path-policy.js';
import { COMPUTE_MODULES_POLICY, RUNTIMES_PREFIX } from './services/compute-modules/policy.js';
import { rejectOtherMediaTypes, useJsonBodies } from './http/body-parsers.js';
import { sharedServerOptions } from './http/server-options.js';
import { installServerLimits } from './http/server-limits.js';
import { whenTargetUnknown } from './http/edge-refusals.js';
import { makePodTlsMaterial } from './services/compute-modules/pod-listener/certificates.js';
import { RESTART_TAIL, podRoutes } from './services/compute-modules/pod-listener/routes.js';
import type { PodListener } from './services/compute-modules/pod-runtime.js';
import type { Journal } from './http/journal/index.js';

/** Always loopback: the pod listener is for modules on this machine (run-module), like a pod's sidecar. */
export const POD_HOST = '127.0.0.1';

export interface PodListenerDeps {
  store: Store;
  settings: Readonly<Settings>;
  jobs: JobService;
  /** The job settings (the result size cap, the listener's port): src/services/compute-modules/settings.ts. */
  jobSettings: Readonly<ComputeModuleSettings>;
  log: FastifyBaseLogger;
  /** A line per request, as the public app logs them at debug and trace. */
  logRequests?: boolean;
  /** The public app's journal: the pod listener's requests are journaled there too (docs/compute-module-leases.md). */
  journal?: Journal;
}

/**
 * A module is handed the public URIs (GET_JOB_URI, ...) and the SDK keeps only their paths; when the public
 * base address has a path of its own (base_url `http://host/emulator`), the runtime prefix is found inside it.
 */
function fromRuntimePrefix(url: string): string {
  const at = url.indexOf(RUNTIMES_PREFIX);
  return at > 0 ? url.slice(at) : url;
}

export async function startPodListener(deps: PodListenerDeps): Promise<PodListener> {
  const tls = await makePodTlsMaterial();
  // The public port's HTTP layer (src/http/server-options.ts): its refusals in the OAuth envelope, the request,
  // header and keep-alive timeouts (given to https.createServer with the TLS material), strict validation.
  const { http, ...shared } = sharedServerOptions(deps.settings);
  const app: FastifyInstance = Fastify({
    ...shared,
    https: { ...http, key: tls.privateKey, cert: tls.certificate },
    loggerInstance: deps.log,
    logController: new LogController({ disableRequestLogging: !deps.logRequests }),
    // Held polls were answered by the public app's preClose (one JobService); nothing else waits here.
    forceCloseConnections: true,
    rewriteUrl: (request) => fromRuntimePrefix(request.url ?? '/'),
  });
  app.decorate('pathPolicies', new PathPolicies(COMPUTE_MODULES_POLICY));
  installErrorRendering(
    app,
    plainErrorLineWriter((level, line) => deps.log[level](line, 'platform error')),
  );
  deps.journal?.attach(app);
  // The connection cap (counted for this listener on its own) and the raw refusals' listeners.
  installServerLimits(app, deps.settings.limits);
  // A header larger than one TLS record (16 KiB) leaves the request line out of the read that fails to parse.
  whenTargetUnknown(app, RUNTIMES_PREFIX);
  // As the public compute-module scope: JSON bodies with the depth limit, an empty one is none; others 415.
  useJsonBodies(app, { emptyIsNoBody: true });
  rejectOtherMediaTypes(app);
  try {
    await app.register(podRoutes, { store: deps.store, jobSettings: deps.jobSettings, jobs: deps.jobs });
    await app.listen({ host: POD_HOST, port: deps.jobSettings.podListenerPort });
  } catch (err) {
    await app.close(); // e.g. the configured port is taken: nothing left half-open
    throw err;
  }
  const { port } = app.server.address() as AddressInfo;
  const url = `https://${POD_HOST}:${port}`;
  deps.log.info({ url }, 'in-pod runtime listener (HTTPS) ready');
  return {
    url,
    host: POD_HOST,
    port,
    caCertificate: tls.caCertificate,
    restartNotificationUri: (runtimeId) => `${url}${RUNTIMES_PREFIX}/${encodeURIComponent(runtimeId)}/${RESTART_TAIL}`,
    close: () => app.close(),
  };
}
