// The ontology's definitions as the seed declares them, compiled once when seeded: object types with their
// properties and links, typed queries and action types. Immutable between resets; the objects and the
// many-to-many pairs that actions change live in the object repository (ontology-objects.ts).

/** A data type in the emulator's own form; the wire forms (property, query, action) are derived from it. */
export type DataType =
  | { type: ScalarType }
  | { type: 'array'; subType: DataType }
  | { type: 'struct'; fields: Array<{ name: string; type: DataType }> }
  /** An object reference: on the wire the target's primary key. Parameters only. */
  | { type: 'object'; objectType: string }
  /** Files on objects (docs/live-ontology.md): an attachment `{rid}`, a media reference `{mimeType, reference}`. */
  | { type: 'attachment' }
  | { type: 'mediaReference' };

export const SCALAR_TYPES = ['string', 'integer', 'long', 'short', 'byte', 'double', 'float', 'decimal', 'boolean', 'date', 'timestamp', 'geopoint'] as const;
export type ScalarType = (typeof SCALAR_TYPES)[number];

export interface PropertyDef {
  apiName: string;
  dataType: DataType;
  rid: string;
}

/** One side of a link type, as seen from `source`. */
export interface LinkSideDef {
  apiName: string;
  displayName: string;
  source: string;
  target: string;
  cardinality: 'ONE' | 'MANY';
  linkTypeRid: string;
  /** The api name of the other side, when the seed names it. */
  reverse?: string;
  /**
   * How the link is stored: `outgoing` reads the source's own foreign-key property, `incoming` finds the targets
   * whose foreign key holds the source's primary key, `pairs` reads the many-to-many pairs of `linkId`
   * (`side` a: the source is the pair's first element).
   */
  via: { kind: 'outgoing'; property: string } | { kind: 'incoming'; property: string } | { kind: 'pairs'; linkId: string; side: 'a' | 'b' };
}

export interface ObjectTypeDef {
  apiName: string;
  displayName: string;
  pluralDisplayName: string;
  description?: string;
  rid: string;
  primaryKey: string;
  titleProperty: string;
  /** Seed order. */
  properties: Map<string, PropertyDef>;
  /** Outgoing link sides by api name, seed order. */
  links: Map<string, LinkSideDef>;
}

export interface ParameterDef {
  dataType: DataType;
  required: boolean;
}

export interface QueryDef {
  apiName: string;
  version: string;
  rid: string;
  displayName?: string;
  description?: string;
  /** Undefined when the seed declares none: parameters are then not checked (SPEC §4.4). */
  parameters?: Map<string, ParameterDef>;
  /** Undefined when the seed declares none. */
  output?: DataType;
  /** First match wins; `when` holds parameter values to equal. Results are JSON bytes, serialized once. */
  cases: Array<{ when: Record<string, unknown>; result: Buffer }>;
}

/** An action's edit with `$name` placeholders left in: the service substitutes the parameters. */
export type EditTemplate =
  | { kind: 'create'; objectType: string; values: Record<string, unknown> }
  | { kind: 'modify'; objectType: string; primaryKey: unknown; set: Record<string, unknown> }
  | { kind: 'delete'; objectType: string; primaryKey: unknown }
  | { kind: 'link' | 'unlink'; objectType: string; primaryKey: unknown; linkType: string; target: unknown };

export interface ActionTypeDef {
  apiName: string;
  rid: string;
  displayName: string;
  description?: string;
  parameters: Map<string, ParameterDef>;
  edits: EditTemplate[];
  /** The api name of a function whose returned edits are applied instead of `edits` (docs/functions.md). */
  function?: string;
}
