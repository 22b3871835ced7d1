// The ontology part of the seed (docs/contracts.md §9): object types, links, objects, typed queries and action types.
// The shapes are checked here; what a shape cannot say (data types, values against their types, references
// between types, objects and parameters) is checked by ontology-check.ts, each problem with its path.
import { Type, type Static } from '@sinclair/typebox';

const closed = { additionalProperties: false } as const;
const NonEmpty = Type.String({ minLength: 1 });
/** A data type: a name (`string`) or the SDK's data type object (`{type: array, subType: ...}`); checked later. */
const DataTypeSeed = Type.Unknown();

const LinkSeed = Type.Object(
  {
    api_name: NonEmpty,
    display_name: Type.Optional(Type.String()),
    target: NonEmpty,
    reverse: Type.Optional(NonEmpty),
    reverse_display_name: Type.Optional(Type.String()),
    foreign_key: Type.Optional(NonEmpty),
    pairs: Type.Optional(Type.Array(Type.Array(Type.Unknown()))),
  },
  closed,
);

export const ObjectTypeSeed = Type.Object(
  {
    api_name: NonEmpty,
    rid: Type.Optional(NonEmpty),
    display_name: Type.Optional(Type.String()),
    plural_display_name: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
    primary_key: NonEmpty,
    title_property: Type.Optional(NonEmpty),
    properties: Type.Record(Type.String(), DataTypeSeed),
    links: Type.Array(LinkSeed, { default: [] }),
  },
  closed,
);

const QueryCaseSeed = Type.Object({ when: Type.Record(Type.String(), Type.Unknown()), result: Type.Unknown() }, { ...closed, required: ['when', 'result'] });

/** SPEC §2.6's query (api_name, result) plus the typed part; every new key optional. */
export const QuerySeed = Type.Object(
  {
    api_name: NonEmpty,
    // Any JSON value, returned as it is on execution when no case matches. Required: `null` is allowed, absence is not.
    result: Type.Unknown(),
    version: Type.Optional(Type.String({ pattern: '^\\d+\\.\\d+\\.\\d+' })),
    display_name: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
    parameters: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    output: Type.Optional(DataTypeSeed),
    cases: Type.Optional(Type.Array(QueryCaseSeed)),
  },
  { ...closed, required: ['api_name', 'result'] },
);

/** One declarative edit: exactly one of create, modify, delete, link, unlink (checked later). */
const EditSeed = Type.Object(
  {
    create: Type.Optional(NonEmpty),
    modify: Type.Optional(NonEmpty),
    delete: Type.Optional(NonEmpty),
    link: Type.Optional(NonEmpty),
    unlink: Type.Optional(NonEmpty),
    values: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    set: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    primary_key: Type.Optional(Type.Unknown()),
    link_type: Type.Optional(NonEmpty),
    target: Type.Optional(Type.Unknown()),
  },
  closed,
);

export const ActionTypeSeed = Type.Object(
  {
    api_name: NonEmpty,
    rid: Type.Optional(NonEmpty),
    display_name: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
    parameters: Type.Record(Type.String(), Type.Unknown(), { default: {} }),
    edits: Type.Array(EditSeed, { default: [] }),
    /** A function served by a compute module whose returned edits are the action's (docs/functions.md). */
    function: Type.Optional(NonEmpty),
  },
  closed,
);

export const OntologySeed = Type.Object(
  {
    rid: Type.Optional(NonEmpty),
    api_name: NonEmpty,
    display_name: NonEmpty,
    description: Type.Optional(Type.String()),
    queries: Type.Array(QuerySeed, { default: [] }),
    object_types: Type.Array(ObjectTypeSeed, { default: [] }),
    objects: Type.Record(Type.String(), Type.Array(Type.Record(Type.String(), Type.Unknown())), { default: {} }),
    action_types: Type.Array(ActionTypeSeed, { default: [] }),
    /** Interfaces and who implements them (docs/live-ontology.md, "Interfaces"). */
    interface_types: Type.Optional(
      Type.Array(
        Type.Object(
          {
            api_name: NonEmpty,
            display_name: Type.Optional(Type.String()),
            description: Type.Optional(Type.String()),
            properties: Type.Record(Type.String(), DataTypeSeed),
            implemented_by: Type.Record(Type.String(), Type.Record(Type.String(), NonEmpty), { default: {} }),
          },
          closed,
        ),
      ),
    ),
  },
  closed,
);
export type OntologySeed = Static<typeof OntologySeed>;
