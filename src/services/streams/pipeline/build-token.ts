// Build tokens (docs/streams.md, "Pipeline mode"): what run-module hands a module in pipeline mode as
// BUILD2_TOKEN. An ordinary access token of a service principal made for the app, whose client id marks it as
// a build token of that app; the streams and datasets routes let it touch only the app's declared resources.
import type { Store } from '../../../store/store.js';
import type { AccessTokenRecord } from '../../../store/tokens.js';
import { ACCESS_TOKEN_TTL_SECONDS } from '../../../store/tokens.js';
import type { Clock } from '../../../clock.js';
import { randomSecret, stableUuid } from '../../../ids.js';
import { DEFAULT_REALM } from '../../../platform-constants.js';
import { PIPELINES, type PipelineApp } from './part.js';

const PREFIX = 'build2:';
/** What a build token may do: read and write streams and datasets (only the declared ones, checked per route). */
export const BUILD_SCOPES = ['api:streams-read', 'api:streams-write', 'api:datasets-read', 'api:datasets-write'];

const clientIdOf = (deployedAppRid: string, branch: string) => `${PREFIX}${deployedAppRid}@${branch}`;

export const isBuildToken = (token: AccessTokenRecord): boolean => token.clientId?.startsWith(PREFIX) === true;

/** The rids a build token's app declared (none when the app's resources are gone, a reset). */
export async function declaredRidsOf(store: Store, token: AccessTokenRecord): Promise<string[]> {
  const id = token.clientId!.slice(PREFIX.length);
  const at = id.lastIndexOf('@');
  const app = await store.part(PIPELINES).get(id.slice(0, at), id.slice(at + 1));
  return app ? Object.values(app.resources).map((r) => r.rid) : [];
}

/** A fresh build token for the app, held by a service principal named after it. */
export async function mintBuildToken(store: Store, clock: Clock, app: PipelineApp): Promise<string> {
  const clientId = clientIdOf(app.deployedAppRid, app.branch);
  const principal = await store.users.servicePrincipalFor(clientId, () => ({
    id: stableUuid(`build-principal:${clientId}`),
    username: clientId,
    displayName: `Build of ${app.deployedAppRid}`,
    realm: DEFAULT_REALM,
    organizationRid: '',
    principalType: 'service',
    active: true,
    oauthClientId: clientId,
    attributes: {},
  }));
  const token = `platform_${randomSecret()}`;
  await store.tokens.insertAccess({
    token,
    principalId: principal.id,
    clientId,
    scopes: BUILD_SCOPES,
    expiresAt: clock.now() + ACCESS_TOKEN_TTL_SECONDS * 1000,
  });
  return token;
}
