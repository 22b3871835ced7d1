// The functions service (docs/functions.md): the functions a compute module in functions mode serves become
// query types of the app's ontologies, callable through the ontology and functions APIs, each call a job for
// the app's runtime.
//
// Known deviations from the real platform:
// - Query types are read from the schemas the runtime holds now: a module that restarts and has not yet posted
//   its schemas serves no functions until it does (the platform keeps the last published version).
// - Only version 0.0.0 exists; `branch` and `version` other than 0.0.0 are not served.
// - The full metadata (`.../fullMetadata`) lists seeded queries only; `queryTypes` lists functions too.
// - A module's failure is told apart from a value by its shape ({error, reason} from the TypeScript SDK,
//   {exception} or {error} from the Python SDK): neither SDK marks it on the wire. QueryEncounteredUserFacingError
//   is never answered: neither SDK can mark a failure as user facing.
// - Ontology object and object set references: neither SDK's schema posts them today; the schema names read
//   (objectReference, objectSet) are ours. An object set parameter is passed as given, never resolved.
// - The Function calls view (like the journal) is per instance and kept in memory.
// - Function-backed actions: applyBatch is refused; the edits come in the public example serializer's form only.
// - Module environment: the Python SDK's `oauth(hostname, scopes)` posts to https://{hostname}/multipass/api/oauth2/token;
//   ours is /idp/api/oauth2/token, so it needs the TLS listener and a path alias (docs/functions.md). Sources come
//   from seeded REST connections only; `proxyToken`, certificates and resolved cloud credentials are never given.
import type { ServiceModule } from '../service-module.js';
import { FUNCTIONS_CONFIGS } from './store.js';
import { functionsCodec } from './seed.js';
import { FUNCTION_SCOPES, functionRoutes } from './routes.js';
import { MODULE_ENVIRONMENTS } from './environment/part.js';
import { moduleEnvironmentsCodec } from './environment/seed.js';
import { functionsBackstage } from './backstage.js';

export const functionsService: ServiceModule = {
  name: 'functions',
  scopes: [...FUNCTION_SCOPES],
  // A call changes the Function calls view, which follows `ontologies` (calls come through both APIs).
  policy: [{ path: '/api/v2/functions/', topics: ['functions', 'ontologies'] }],
  store: [FUNCTIONS_CONFIGS, MODULE_ENVIRONMENTS],
  seed: [functionsCodec, moduleEnvironmentsCodec],
  routes: functionRoutes,
  backstage: functionsBackstage,
};
