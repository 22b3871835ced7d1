// The OAuth service module: the authorization server, its sign-in page and its tokens (docs/contracts.md §2).
import type { ServiceModule } from '../service-module.js';
import { CLIENTS, OAUTH, TOKENS } from '../../store/core-parts.js';
import { oauthRoutes } from './routes.js';
import { oauthBackstage } from './backstage.js';
import { oauthClientsSeed } from './seed.js';
import { OFFLINE_ACCESS } from './scopes.js';
import { METADATA_PATH } from './metadata.js';

export const oauthService: ServiceModule = {
  name: 'oauth',
  scopes: [OFFLINE_ACCESS],
  policy: [
    { path: '/idp/api/oauth2/authorize', exact: true, family: 'html' },
    { path: '/idp/api/oauth2/authorize/callback', exact: true, family: 'html' },
    { path: '/idp/api/oauth2/token', exact: true, family: 'oauth', cors: true, topics: ['tokens'] },
    { path: '/idp/api/oauth2/revoke_token', exact: true, family: 'oauth', cors: true, topics: ['tokens'] },
    { path: '/idp/api/oauth2/introspect', exact: true, family: 'oauth', cors: true, topics: ['tokens'] },
    { path: '/idp/api/oauth2/', family: 'oauth', topics: ['tokens'] },
    { path: '/.well-known/' },
    { path: '/_emulate/platform/tokens', topics: ['tokens'] },
    { path: '/_emulate/platform/clients', topics: ['clients'] },
    { path: '/_emulate/platform/oauth-clients', topics: ['clients'] },
  ],
  store: [CLIENTS, TOKENS, OAUTH],
  seed: [oauthClientsSeed],
  routes: oauthRoutes,
  entryPoints: (base) => ({
    oauth: { metadata: `${base}${METADATA_PATH}`, authorize: `${base}/idp/api/oauth2/authorize`, token: `${base}/idp/api/oauth2/token` },
  }),
  backstage: {
    routes: oauthBackstage,
    panels: [
      { id: 'tokens', title: 'Live tokens', script: 'tokens-panel.js', topics: ['tokens'] },
      { id: 'clients', title: 'OAuth clients', script: 'clients-panel.js', topics: ['clients'] },
    ],
  },
};
