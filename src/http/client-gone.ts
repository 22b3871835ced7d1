// Both route families hold requests open (a poll, a synchronous execute) and must notice a client that leaves.
import type { FastifyReply } from 'fastify';

/**
 * An AbortSignal that fires when the client goes away before its response was handed to the connection:
 * while a request waits, and after it answered but before that answer was written out.
 */
export function clientGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  let finished = false;
  reply.raw.once('finish', () => (finished = true));
  reply.raw.once('close', () => {
    if (!finished) controller.abort();
  });
  return controller.signal;
}
