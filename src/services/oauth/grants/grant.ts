// The shape every grant module shares; the token endpoint picks one from a table by grant_type.
import type { ClientRecord } from '../../../store/store.js';
import type { TokenResponse } from '../access-tokens.js';
import type { Params } from '../params.js';
import type { TokenDeps } from '../deps.js';

interface GrantContext extends TokenDeps {
  /** The authenticated client. */
  client: ClientRecord;
  params: Params;
}

export type Grant = (context: GrantContext) => Promise<TokenResponse>;
