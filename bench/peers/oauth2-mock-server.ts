// Peer: oauth2-mock-server as its README sets it up (one RS256 key), serving client credentials at /token.
// It signs a JWT per token and does not check the client secret: that is how the package works.
import { parseArgs } from 'node:util';
import { OAuth2Server } from 'oauth2-mock-server';

const { values } = parseArgs({ options: { port: { type: 'string' } } });
const server = new OAuth2Server();
await server.issuer.keys.generate('RS256');
await server.start(Number(values.port ?? 0), '127.0.0.1');
console.log(`oauth2-mock-server listening on ${server.issuer.url ?? ''}`);
process.on('SIGTERM', () => void server.stop().then(() => process.exit(0)));
