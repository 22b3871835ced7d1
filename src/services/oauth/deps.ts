// What the OAuth service's functions work with: the store, the injected clock and the caps of `platform.limits`.
import type { Clock } from '../../clock.js';
import type { Settings } from '../../settings.js';
import type { Store } from '../../store/store.js';

export interface OAuthDeps {
  store: Store;
  clock: Clock;
  settings: Pick<Settings, 'oauthLimits'>;
}

/** The token endpoint also needs every scope the served services check: a client_credentials request with no scope gets them. */
export interface TokenDeps extends OAuthDeps {
  scopeMatrix: readonly string[];
}
