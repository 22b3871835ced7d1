// What the OAuth service's functions work with: the store and the injected clock.
import type { Clock } from '../../clock.js';
import type { Store } from '../../store/store.js';

export interface OAuthDeps {
  store: Store;
  clock: Clock;
}
