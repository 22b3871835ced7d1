// The shape every grant module shares; the token endpoint picks one from a table by grant_type.
import type { Clock } from '../../../clock.js';
import type { ClientRecord, Store } from '../../../store/store.js';
import type { TokenResponse } from '../access-tokens.js';
import type { Params } from '../params.js';

interface GrantContext {
  store: Store;
  clock: Clock;
  /** The authenticated client. */
  client: ClientRecord;
  params: Params;
}

export type Grant = (context: GrantContext) => Promise<TokenResponse>;
