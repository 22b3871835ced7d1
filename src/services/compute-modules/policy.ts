// The compute-module routes' path policy (docs/contracts.md §1, §6): the runtime and job routes answer in the
// OAuth envelope, and a write there changes the runtimes the dashboard shows. Shared by the public app (through
// the service module) and the in-pod listener, which serves the runtime routes on a port of its own.
import type { PathPolicy } from '../../http/path-policy.js';

export const JOB_ROUTES_PREFIX = '/analytics-backend-multiplexer/';
/** The runtime routes a module's SDK calls, on the public port and on the in-pod listener. */
export const RUNTIMES_PREFIX = '/_emulate/platform/compute-modules/runtimes';

export const COMPUTE_MODULES_POLICY: readonly PathPolicy[] = [
  { path: '/_emulate/platform/compute-modules/', family: 'oauth', topics: ['runtimes'] },
  { path: JOB_ROUTES_PREFIX, family: 'oauth', topics: ['runtimes'] },
];
