// The public routes over TLS, beside plain http (docs/tls.md): one more Node server whose requests go to the
// app's own handler, so every route, hook, envelope and the journal serve both listeners alike. Its certificate
// is signed at each start by the CA kept in the data directory (src/tls/ca-store.ts).
import { createServer, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Settings } from '../settings.js';
import { answerClientError } from '../http/edge-refusals.js';
import { serverOptions } from '../http/server-limits.js';
import { caCertificatePath, persistentCa } from './ca-store.js';
import { issueServerCertificate } from './certificates.js';

export interface HttpsListener {
  /** `https://localhost:{port}`: the name the certificate carries and the tools are given. */
  url: string;
  port: number;
  /** The CA file a client trusts (REQUESTS_CA_BUNDLE, NODE_EXTRA_CA_CERTS). */
  caFile: string;
  close(): Promise<void>;
}

/** A server certificate outlives any run; a restart signs a new one with the same CA. */
const SERVER_CERTIFICATE_DAYS = 90;

export async function startHttpsListener(app: FastifyInstance, settings: Readonly<Settings>, port: number, dataDir: string): Promise<HttpsListener> {
  const ca = await persistentCa(dataDir);
  const tls = await issueServerCertificate(ca, SERVER_CERTIFICATE_DAYS);
  const { http } = serverOptions(settings.limits);
  const server: Server = createServer({ ...http, key: tls.privateKey, cert: tls.certificate });
  server.maxConnections = settings.limits.maxConnections;
  // Everything the app's own server answers (its request handler with the limits in front, CONNECT, Expect)
  // is answered the same way here: the events are handed to it.
  server.on('request', (request, response) => app.server.emit('request', request, response));
  server.on('connect', (request, socket, head) => app.server.emit('connect', request, socket, head));
  server.on('checkExpectation', (request, response) => app.server.emit('checkExpectation', request, response));
  server.on('clientError', (err: Error, socket: Socket) => answerClientError.call(app, err as never, socket));
  // A TLS handshake that fails (a client that does not trust the CA) ends that connection, nothing more.
  server.on('tlsClientError', (_err: Error, socket: Socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host: settings.host }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `https://localhost:${bound}`,
    port: bound,
    caFile: caCertificatePath(dataDir),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
