// Bodies that arrived in full but do not parse (malformed JSON or form, an empty JSON body) are answered on a
// connection that stays open. Fastify marks the connection to close whenever a body parser fails, which is
// right when the body was not read to its end (too large: the client may still be sending) but makes every
// client that sent a bad body reconnect: under load that doubled the server's CPU per bad request.
import type { FastifyInstance } from 'fastify';

export function keepAliveAfterBadBodies(app: FastifyInstance): void {
  // onError runs only when an error is being answered, after the parser asked to close and before the reply.
  app.addHook('onError', (request, reply, _error, done) => {
    // Set, not removed: Node treats a removed Connection header as "decide nothing" and closes anyway.
    if (request.raw.complete && reply.raw.shouldKeepAlive && reply.getHeader('connection') === 'close') reply.header('connection', 'keep-alive');
    done();
  });
}
