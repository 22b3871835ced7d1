// The YAML seed schema (root key `platform`), with the defaults of SPEC §2. The Seed type comes from it.
// Unknown keys are rejected (additionalProperties: false) so that a typo never silently seeds nothing.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { StringMap } from '../string-map.js';

const closed = { additionalProperties: false } as const;
const NonEmpty = Type.String({ minLength: 1 });
const PositiveMs = Type.Integer({ minimum: 1 });

// The settings of the whole emulator live here; each service's own keys (users, ontologies, ...) are its seed
// codec's (src/seed/codec.ts), composed beside these by configDocumentFor.

// Connection limits (docs/contracts.md §8); defaults in src/settings.ts. The services' own caps (tokens kept,
// file sizes, records kept) sit beside them under `limits`: each declares its keys in its seed codec (`limits`).
const ConnectionLimits = {
  max_connections: Type.Optional(Type.Integer({ minimum: 1 })),
  request_timeout_ms: Type.Optional(PositiveMs),
  headers_timeout_ms: Type.Optional(PositiveMs),
  keep_alive_timeout_ms: Type.Optional(PositiveMs),
};
const limitsSchema = (serviceKeys: Readonly<Record<string, TSchema>>) => Type.Object({ ...ConnectionLimits, ...serviceKeys }, { ...closed, default: {} });

const PlatformConfig = Type.Object(
  {
    port: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
    /** The TLS listener beside plain http (docs/tls.md); 0 picks a free port; absent: none. */
    https_port: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
    host: Type.Optional(NonEmpty),
    base_url: Type.Optional(Type.String({ pattern: '^https?://' })),
    control_token: Type.Optional(NonEmpty),
    /** `memory` (the default) or a `postgres://` URL (docs/contracts.md §12). */
    store: Type.Optional(Type.String({ pattern: '^(memory|postgres(ql)?://.+)$' })),
    cors_origins: Type.Optional(Type.Array(Type.String({ pattern: '^(\\*|https?://[^/?#]+/?)$' }), { maxItems: 100 })),
    journal_size: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
    path_aliases: Type.Optional(StringMap(Type.String())),
    limits: limitsSchema({}),
  },
  closed,
);

export const ConfigDocument = Type.Object({ platform: Type.Object(PlatformConfig.properties, { ...closed, default: {} }) }, closed);

/** A seed key a service owns (its SeedCodec): the loader validates it with the rest of the document. */
export interface SeedKeySchema {
  key: string;
  schema: TSchema;
  /**
   * Problems the schema cannot see (references, duplicates), each naming its path; `platform` is the whole
   * section; `source` the seed file's path (`<inline>` when there is none), for keys that name files beside it.
   */
  check?(part: never, path: string, platform: Record<string, unknown>, source: string): string[];
  /**
   * The service's caps under `platform.limits` (each optional, an integer; its default is the service's own
   * and the service reads it from the seed's `limits`).
   */
  limits?: Readonly<Record<string, TSchema>>;
}

const composed = new WeakMap<readonly SeedKeySchema[], TSchema>();

/** The document schema with the services' own keys beside the built-in ones (built once per list). */
export function configDocumentFor(keys: readonly SeedKeySchema[]): TSchema {
  if (keys.length === 0) return ConfigDocument;
  let document = composed.get(keys);
  if (!document) {
    const extra = Object.fromEntries(keys.map((k) => [k.key, k.schema]));
    const limits = limitsSchema(Object.assign({}, ...keys.map((k) => k.limits ?? {})));
    document = Type.Object({ platform: Type.Object({ ...PlatformConfig.properties, limits, ...extra }, { ...closed, default: {} }) }, closed);
    composed.set(keys, document);
  }
  return document;
}

type PlatformConfig = Static<typeof PlatformConfig>;
export type ConfigDocument = Static<typeof ConfigDocument>;
/**
 * The validated, defaulted `platform` section: settings and entities together. The services' own keys
 * (SeedKeySchema) sit beside them; each service reads its part through its codec.
 */
export type Seed = Omit<PlatformConfig, 'limits'> & {
  /** The connection limits, and each service's caps by their seed names (read by the service that declares them). */
  readonly limits: PlatformConfig['limits'] & { readonly [serviceCap: string]: number | undefined };
  readonly [serviceKey: string]: unknown;
};
