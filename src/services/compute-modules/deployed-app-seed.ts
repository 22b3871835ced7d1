// The seed shape of one deployed app (platform.compute_modules.deployed_apps[]). Besides its own fields, an app's
// entry carries blocks that services built on compute modules read: `functions` (the functions its module serves,
// docs/functions.md), `client_id` and `sources` (its module environment, docs/functions.md "Module environment")
// and `resources` (pipeline mode, docs/streams.md). This service validates the whole entry, so the shapes of those
// blocks are written here, and the functions service's codecs take them from here: a service built on this one
// reads down to it, never the other way round.
import { Type, type Static } from '@sinclair/typebox';
import { ResourcesSeed } from '../streams/pipeline/seed.js';

const closed = { additionalProperties: false } as const;
const NonEmpty = Type.String({ minLength: 1 });

/** A function's name as the SDKs post it, and a namespace: what may sit between the dots of an api name. */
const FunctionName = Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]{0,99}$' });

const DEFAULT_FUNCTION_TIMEOUT_MS = 60_000;

/** The `functions` block: which functions the module serves as queries, in which ontologies, under which namespace, and how long a call may wait. */
export const FunctionsSeed = Type.Object(
  {
    namespace: FunctionName,
    /** Ontologies (api names) that list the functions; absent: every seeded ontology. */
    ontologies: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
    /** `auto`: every function the module posts; a list: only these. */
    register: Type.Union([Type.Literal('auto'), Type.Array(FunctionName)], { default: 'auto' }),
    timeout_ms: Type.Integer({ minimum: 1, maximum: 3_600_000, default: DEFAULT_FUNCTION_TIMEOUT_MS }),
  },
  closed,
);
export type FunctionsSeed = Static<typeof FunctionsSeed>;

/** A source's api name: what the SDKs look up, a JSON key of the credentials file. */
const SourceName = Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_.-]{0,99}$' });
/** One entry of the `sources` list: a seeded connection under the name the module looks it up by. */
export const ModuleSourceSeed = Type.Object({ api_name: SourceName, connection: NonEmpty }, closed);
/** The `client_id` of a deployed app: a seeded confidential client, the module's application permissions. */
export const ModuleClientIdSeed = NonEmpty;

export const DeployedAppSeed = Type.Object(
  {
    deployed_app_rid: NonEmpty,
    runtime_id: NonEmpty,
    branch: Type.String({ default: 'master' }),
    display_name: Type.Optional(Type.String()),
    active: Type.Boolean({ default: true }),
    /** The functions its module serves as queries: read by the functions service's codec (docs/functions.md). */
    functions: Type.Optional(FunctionsSeed),
    /** Pipeline mode's inputs and outputs (alias -> {rid, branch}): read by the streams service's codec (docs/streams.md). */
    resources: Type.Optional(ResourcesSeed),
    /** Application permissions and sources given to its module: read by the functions service's codec (docs/functions.md). */
    client_id: Type.Optional(ModuleClientIdSeed),
    sources: Type.Optional(Type.Array(ModuleSourceSeed)),
  },
  closed,
);
