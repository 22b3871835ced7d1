// The YAML seed schema (root key `platform`), with the defaults of SPEC §2. The Seed type comes from it.
// Unknown keys are rejected (additionalProperties: false) so that a typo never silently seeds nothing.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { StringMap } from '../string-map.js';
import { OAUTH_LIMIT_KEYS } from './limits.js';
import { QuerySeed, ontologySeedKeys } from './ontology-schema.js';

const closed = { additionalProperties: false } as const;
const NonEmpty = Type.String({ minLength: 1 });

export const DEFAULT_REALM = 'platform-internal-realm';
export const DEFAULT_ORGANIZATION_RID = 'ri.organization.main.organization.default';
export const ALL_GRANT_TYPES = ['authorization_code', 'refresh_token', 'client_credentials'] as const;

export const UserSeed = Type.Object(
  {
    username: NonEmpty,
    display_name: Type.Optional(Type.String()),
    email: Type.Optional(Type.String()),
    given_name: Type.Optional(Type.String()),
    family_name: Type.Optional(Type.String()),
    realm: Type.String({ default: DEFAULT_REALM }),
    organization_rid: Type.String({ default: DEFAULT_ORGANIZATION_RID }),
    principal_type: Type.Union([Type.Literal('human'), Type.Literal('service')], { default: 'human' }),
    active: Type.Boolean({ default: true }),
    oauth_client_id: Type.Optional(Type.String()),
    attributes: StringMap(Type.Array(Type.String()), { default: {} }),
  },
  closed,
);

export const GrantType = Type.Union(ALL_GRANT_TYPES.map((g) => Type.Literal(g)));

const OAuthClientSeed = Type.Object(
  {
    client_id: NonEmpty,
    // SPEC marks it required; CONTRACTS §2 accepts a missing or empty secret as a public client.
    client_secret: Type.Optional(Type.String()),
    name: Type.Optional(Type.String()),
    redirect_uris: Type.Array(Type.String(), { default: [] }),
    grant_types: Type.Array(GrantType, { default: [...ALL_GRANT_TYPES] }),
    allowed_scopes: Type.Array(Type.String(), { default: [] }),
  },
  closed,
);

const EnrollmentSeed = Type.Object(
  {
    rid: Type.String({ default: 'ri.enrollment..enrollment.default' }),
    name: Type.String({ default: 'Default Enrollment' }),
  },
  closed,
);

const DomainSeed = Type.Object(
  {
    host: NonEmpty,
    port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535 })),
    scheme: Type.Optional(Type.Union([Type.Literal('HTTP'), Type.Literal('HTTPS')])),
  },
  closed,
);

const ConnectionSeed = Type.Object(
  {
    rid: Type.Optional(NonEmpty),
    display_name: NonEmpty,
    parent_folder_rid: NonEmpty,
    domains: Type.Array(DomainSeed, { default: [] }),
  },
  closed,
);

const OntologySeed = Type.Object(
  {
    rid: Type.Optional(NonEmpty),
    api_name: NonEmpty,
    display_name: NonEmpty,
    description: Type.Optional(Type.String()),
    queries: Type.Array(QuerySeed, { default: [] }),
    ...ontologySeedKeys,
  },
  closed,
);

const RuntimeSeed = Type.Object(
  {
    runtime_id: NonEmpty,
    module_auth_token: Type.Optional(NonEmpty),
  },
  closed,
);

const DeployedAppSeed = Type.Object(
  {
    deployed_app_rid: NonEmpty,
    runtime_id: NonEmpty,
    branch: Type.String({ default: 'master' }),
    display_name: Type.Optional(Type.String()),
    active: Type.Boolean({ default: true }),
  },
  closed,
);

const PositiveMs = Type.Integer({ minimum: 1 });

const ComputeModulesSeed = Type.Object(
  {
    runtimes: Type.Array(RuntimeSeed, { default: [] }),
    deployed_apps: Type.Array(DeployedAppSeed, { default: [] }),
    poll_timeout_ms: Type.Optional(PositiveMs),
    execute_timeout_ms: Type.Optional(PositiveMs),
    retained_jobs: Type.Optional(Type.Integer({ minimum: 0 })),
    max_result_bytes: Type.Optional(Type.Integer({ minimum: 1 })),
    pod_listener_port: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
    module_gone_ms: Type.Optional(PositiveMs),
    max_queued_jobs: Type.Optional(Type.Integer({ minimum: 1 })),
    max_retained_result_bytes: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  closed,
);

// Connection limits (CONTRACTS §8); defaults in src/settings.ts.
const LimitsSeed = Type.Object(
  {
    max_connections: Type.Optional(Type.Integer({ minimum: 1 })),
    request_timeout_ms: Type.Optional(PositiveMs),
    headers_timeout_ms: Type.Optional(PositiveMs),
    keep_alive_timeout_ms: Type.Optional(PositiveMs),
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
    /** `memory` (the default) or a `postgres://` URL (CONTRACTS §12). */
    store: Type.Optional(Type.String({ pattern: '^(memory|postgres(ql)?://.+)$' })),
    cors_origins: Type.Optional(Type.Array(Type.String({ pattern: '^(\\*|https?://[^/?#]+/?)$' }), { maxItems: 100 })),
    journal_size: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
    path_aliases: Type.Optional(StringMap(Type.String())),
    users: Type.Array(UserSeed, { default: [] }),
    oauth_clients: Type.Array(OAuthClientSeed, { default: [] }),
    enrollment: Type.Object(EnrollmentSeed.properties, { ...closed, default: {} }),
    connections: Type.Array(ConnectionSeed, { default: [] }),
    ontologies: Type.Array(OntologySeed, { default: [] }),
    compute_modules: Type.Object(ComputeModulesSeed.properties, { ...closed, default: {} }),
    limits: Type.Object({ ...OAUTH_LIMIT_KEYS, ...LimitsSeed.properties }, { ...closed, default: {} }),
  },
  closed,
);

export const ConfigDocument = Type.Object({ platform: Type.Object(PlatformConfig.properties, { ...closed, default: {} }) }, closed);

/** A seed key a service owns (its SeedCodec): the loader validates it with the rest of the document. */
export interface SeedKeySchema {
  key: string;
  schema: TSchema;
  /** Problems the schema cannot see (references, duplicates), each naming its path; `platform` is the whole section. */
  check?(part: never, path: string, platform: Record<string, unknown>): string[];
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

export type UserSeed = Static<typeof UserSeed>;
type OAuthClientSeed = Static<typeof OAuthClientSeed>;
type ConnectionSeed = Static<typeof ConnectionSeed>;
export type OntologySeed = Static<typeof OntologySeed>;
type PlatformConfig = Static<typeof PlatformConfig>;
export type ConfigDocument = Static<typeof ConfigDocument>;
/**
 * The validated, defaulted `platform` section: settings and entities together. The services' own keys
 * (SeedKeySchema) sit beside them; each service reads its part through its codec.
 */
export type Seed = PlatformConfig & { readonly [serviceKey: string]: unknown };
