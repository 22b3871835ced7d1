// Bodies that arrived in full but do not parse (malformed JSON or form, an empty JSON body) are answered on a
// connection that stays open. Fastify marks the connection to close whenever a body parser fails, which is
// right when the body was not read to its end (too large: the client may still be sending) but makes every
// client that sent a bad body reconnect: under load that doubled the server's CPU per bad request.
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Called by the error handler before it answers (an onError hook would do the same, at the cost of the
 * framework's hook runner on every error answered).
 */
export function keepAliveAfterReadBody(request: FastifyRequest, reply: FastifyReply): void {
  // Set, not removed: Node treats a removed Connection header as "decide nothing" and closes anyway.
  if (request.raw.complete && reply.raw.shouldKeepAlive && reply.getHeader('connection') === 'close') reply.header('connection', 'keep-alive');
}
