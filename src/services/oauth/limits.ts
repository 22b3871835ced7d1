// Refusals past the caps of `platform.limits` (docs/contracts.md §8). Tokens are refused, never evicted: a caller holding
// an evicted token would meet a surprise 401. Each refusal says which limit and what makes room again.
import { PlatformError, temporarilyUnavailable, type EmulatorError } from '../../errors.js';
import { StoreFull } from '../../store/capacity.js';

const accessTokensFullText = (max: number) =>
  `The service holds its maximum of ${max} live access tokens (limits.max_access_tokens). ` +
  'Try again once some expire (after 3600 s) or are revoked, or raise the limit in the config.';

/** At the token endpoint: 503 temporarily_unavailable. */
export const accessTokensFull = (max: number): EmulatorError => temporarilyUnavailable(accessTokensFullText(max));

/** At the control route that mints tokens (platform envelope, whose catalog has no 503). */
export const accessTokensFullPlatform = (max: number): EmulatorError =>
  new PlatformError('CONFLICT', 'AccessTokenLimitReached', { maxAccessTokens: max }, accessTokensFullText(max));

export const refreshTokensFull = (max: number): EmulatorError =>
  temporarilyUnavailable(
    `The service holds its maximum of ${max} live refresh tokens (limits.max_refresh_tokens). ` +
      'Try again once some expire (after 24 h) or are revoked, ask without offline_access, or raise the limit in the config.',
  );

export const servicePrincipalsFull = (max: number): EmulatorError =>
  temporarilyUnavailable(
    `The service holds its maximum of ${max} service principals made for unregistered client ids (limits.max_service_principals). ` +
      'Client ids already used still get tokens; a reset makes room, or raise the limit in the config, or seed oauth_clients.',
  );

/** `err` as the route's refusal when it says a store is full; any other error as it is. */
export const refusalFor = (err: unknown, refusal: (max: number) => EmulatorError): unknown => (err instanceof StoreFull ? refusal(err.max) : err);
