// Peer: oidc-provider with one confidential client allowed the client credentials grant (Basic auth) and
// opaque access tokens kept in its default in-memory adapter, the closest to what the emulator does.
import { parseArgs } from 'node:util';
import Provider from 'oidc-provider';
import { ADMIN_SCOPE, CLIENT_ID, CLIENT_SECRET } from '../lib/fixtures.js';

const { values } = parseArgs({ options: { port: { type: 'string' } } });
const port = Number(values.port ?? 0);
const provider = new Provider(`http://127.0.0.1:${port}`, {
  clients: [
    {
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: 'client_secret_basic',
      scope: ADMIN_SCOPE,
    },
  ],
  scopes: [ADMIN_SCOPE],
  ttl: { ClientCredentials: 3600 },
  features: { clientCredentials: { enabled: true }, devInteractions: { enabled: false } },
});
const server = provider.listen(port, '127.0.0.1', () => console.log(`oidc-provider listening on ${port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
