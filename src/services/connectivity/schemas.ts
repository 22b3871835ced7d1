// Request schemas. The route schemas check the outer shape of each body; the tagged unions inside a create
// request (configuration, worker, domain auth, secrets) are checked branch by branch in create.ts, so that each
// failure names its field and the SDK's own errors (ConnectionTypeNotSupported, ...) come out where they apply.
import { Type } from '@sinclair/typebox';
import { StringMap } from '../../string-map.js';

const closed = { additionalProperties: false } as const;
const open = { additionalProperties: true } as const;
const Tagged = Type.Object({ type: Type.String() }, open);

/** `?preview=true` is accepted (any letter case) and never required; other query parameters are ignored. */
export { PreviewQuery } from '../../http/preview.js';

export const ConnectionParams = Type.Object({ connectionRid: Type.String() });

export const CreateConnectionBody = Type.Object(
  {
    parentFolderRid: Type.String(),
    displayName: Type.String(),
    // The SDK type requires it; docs/contracts.md §4 defaults it to the Foundry worker when omitted.
    worker: Type.Optional(Tagged),
    // The newer name of `worker` (docs/contracts.md §10), same shapes; one or the other.
    runtimePlatform: Type.Optional(Tagged),
    configuration: Tagged,
  },
  closed,
);

export const UpdateSecretsBody = Type.Object({ secrets: StringMap(Type.String()) }, closed);

// ---- the branches, checked in create.ts ----

export const FoundryWorker = Type.Object({ type: Type.Literal('foundryWorker'), networkEgressPolicyRids: Type.Optional(Type.Array(Type.String())) }, closed);

export const RestConfiguration = Type.Object(
  {
    type: Type.Literal('rest'),
    domains: Type.Array(
      Type.Object(
        {
          host: Type.String(),
          port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535 })),
          scheme: Type.Optional(Type.Union([Type.Literal('HTTP'), Type.Literal('HTTPS')])),
          auth: Type.Optional(Tagged),
        },
        closed,
      ),
    ),
    additionalSecrets: Type.Optional(Tagged),
    oauth2ClientRid: Type.Optional(Type.String()),
  },
  closed,
);

export const PlaintextValue = Type.Object({ type: Type.Literal('asPlaintextValue'), value: Type.String() }, closed);

export const BearerTokenAuth = Type.Object({ type: Type.Literal('bearerToken'), bearerToken: Tagged }, closed);
export const ApiKeyAuth = Type.Object({ type: Type.Literal('apiKey'), location: Tagged, apiKey: Tagged }, closed);
export const BasicAuth = Type.Object({ type: Type.Literal('basic'), username: Type.String(), password: Tagged }, closed);
export const OAuth2Auth = Type.Object({ type: Type.Literal('oauth2') }, closed);

export const HeaderLocation = Type.Object({ type: Type.Literal('header'), headerName: Type.String({ minLength: 1 }) }, closed);
export const QueryParameterLocation = Type.Object({ type: Type.Literal('queryParameter'), queryParameterName: Type.String({ minLength: 1 }) }, closed);

export const SecretsWithPlaintextValues = Type.Object({ type: Type.Literal('asSecretsWithPlaintextValues'), secrets: StringMap(Type.String()) }, closed);
