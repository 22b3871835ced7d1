// The `functions` block of a deployed app in the seed (docs/functions.md): which functions its module serves as
// queries, in which ontologies, under which namespace, and how long a call may wait. The seed schema of deployed
// apps (src/seed/schema.ts) includes it; the codec (seed.ts) stores it.
import { Type, type Static } from '@sinclair/typebox';

/** A function's name as the SDKs post it, and a namespace: what may sit between the dots of an api name. */
const Name = Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]{0,99}$' });

export const DEFAULT_FUNCTION_TIMEOUT_MS = 60_000;

export const FunctionsSeed = Type.Object(
  {
    namespace: Name,
    /** Ontologies (api names) that list the functions; absent: every seeded ontology. */
    ontologies: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
    /** `auto`: every function the module posts; a list: only these. */
    register: Type.Union([Type.Literal('auto'), Type.Array(Name)], { default: 'auto' }),
    timeout_ms: Type.Integer({ minimum: 1, maximum: 3_600_000, default: DEFAULT_FUNCTION_TIMEOUT_MS }),
  },
  { additionalProperties: false },
);
export type FunctionsSeed = Static<typeof FunctionsSeed>;
