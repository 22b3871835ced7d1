// The YAML seed schema (root key `platform`), with the defaults of SPEC §2. The Seed type comes from it.
// Unknown keys are rejected (additionalProperties: false) so that a typo never silently seeds nothing.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { StringMap } from '../string-map.js';
import { OAUTH_LIMIT_KEYS } from './limits.js';

const closed = { additionalProperties: false } as const;
const NonEmpty = Type.String({ minLength: 1 });
const PositiveMs = Type.Integer({ minimum: 1 });

// The settings of the whole emulator live here; each service's own keys (users, ontologies, ...) are its seed
// codec's (src/seed/codec.ts), composed beside these by configDocumentFor.

// Connection limits (docs/contracts.md §8); defaults in src/settings.ts.
const LimitsSeed = Type.Object(
  {
    max_connections: Type.Optional(Type.Integer({ minimum: 1 })),
    request_timeout_ms: Type.Optional(PositiveMs),
    headers_timeout_ms: Type.Optional(PositiveMs),
    keep_alive_timeout_ms: Type.Optional(PositiveMs),
    /** The largest dataset file an upload may store (docs/datasets.md); default 1 GiB. */
    max_dataset_file_bytes: Type.Optional(Type.Integer({ minimum: 1 })),
    /** The most records a stream's view keeps, oldest dropped first (docs/streams.md); default 1,000,000. */
    max_stream_records: Type.Optional(Type.Integer({ minimum: 1 })),
    /** The largest attachment or media upload (docs/live-ontology.md); default 200 MiB. */
    max_ontology_file_bytes: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  closed,
);

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
    limits: Type.Object({ ...OAUTH_LIMIT_KEYS, ...LimitsSeed.properties }, { ...closed, default: {} }),
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
}

const composed = new WeakMap<readonly SeedKeySchema[], TSchema>();

/** The document schema with the services' own keys beside the built-in ones (built once per list). */
export function configDocumentFor(keys: readonly SeedKeySchema[]): TSchema {
  if (keys.length === 0) return ConfigDocument;
  let document = composed.get(keys);
  if (!document) {
    const extra = Object.fromEntries(keys.map((k) => [k.key, k.schema]));
    document = Type.Object({ platform: Type.Object({ ...PlatformConfig.properties, ...extra }, { ...closed, default: {} }) }, closed);
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
export type Seed = PlatformConfig & { readonly [serviceKey: string]: unknown };
