// What the OAuth service's functions work with: the store, the injected clock and the caps of `platform.limits`.
import type { Clock } from '../../clock.js';
import type { Seed } from '../../seed/schema.js';
import type { Store } from '../../store/store.js';

export interface OAuthDeps {
  store: Store;
  clock: Clock;
  /** The seed's caps under `limits` (caps.ts). */
  seed: Pick<Seed, 'limits'>;
}

/** The token endpoint also needs every scope the served services check: a client_credentials request with no scope gets them. */
export interface TokenDeps extends OAuthDeps {
  scopeMatrix: readonly string[];
}
