// grant_type -> grant module.
import type { GrantType } from '../../../store/store.js';
import type { Grant } from './grant.js';
import { authorizationCodeGrant } from './authorization-code.js';
import { refreshTokenGrant } from './refresh-token.js';
import { clientCredentialsGrant } from './client-credentials.js';

export const GRANTS: Readonly<Record<GrantType, Grant>> = {
  authorization_code: authorizationCodeGrant,
  refresh_token: refreshTokenGrant,
  client_credentials: clientCredentialsGrant,
};

export const isGrantType = (value: string): value is GrantType => Object.hasOwn(GRANTS, value);
