// Requests whose client left before the answer was complete (docs/contracts.md §7): a client timeout, a cancelled
// fetch, a reader that drops a large download, an abandoned long poll. Fastify's onResponse runs only once an
// answer is out ('finish'), so these never reached the journal; the response's 'close' without 'finish' is their
// only sign. Fastify's onRequestAbort is no help: it fires only while the request body is unread (`req.aborted`),
// so a POST whose body was parsed before it waited is never reported.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { answeredSockets } from '../answered-sockets.js';

/**
 * The status of a request left before any of its answer was sent: nginx's "client closed request". No route
 * answers it, so `status=499` finds these (short of an injected fault). A request left after its status line went
 * out keeps that status, as the client saw it (nginx does the same); `clientLeft` marks both kinds.
 */
export const CLIENT_CLOSED_REQUEST = 499;

/** How a peer that vanished shows on a socket: reset (unread bytes in its buffers), or a write to a closed end. */
const PEER_GONE = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/**
 * Whether the client, not this service, ended the connection: it sent its FIN (a cancelled fetch, a timeout) or
 * reset it (a reader leaving mid-download). A connection the service cut is not a client leaving: a stream
 * that failed after its status (Fastify destroys the response), a forced close on shutdown, or the HTTP
 * layer's own 408 (answered-sockets.ts). The cheap checks come first: this runs on every fast-lane answer.
 */
export function clientClosed(socket: Socket): boolean {
  if (!socket.readableEnded && !PEER_GONE.has((socket.errored as NodeJS.ErrnoException | null)?.code ?? '')) return false;
  return !answeredSockets.has(socket);
}

/** Whether the response was closed before it finished because its client left. */
export function leftBeforeFinished(res: ServerResponse, socket: Socket): boolean {
  return !res.writableFinished && clientClosed(socket);
}

/** The status a left request is journaled with: the one being sent if the answer had begun, else 499. */
export const leftStatus = (reply: FastifyReply): number => (reply.raw.headersSent ? reply.statusCode : CLIENT_CLOSED_REQUEST);

/**
 * The journal's note on a left request, by whether its answer had begun; the rest of what is known (a refusal, a
 * route's note) follows it. An event stream (a subscription) has no end of its own: its client closing it is how
 * it ends, which the note says rather than guess the stream from the answer's headers.
 */
export function leftNote(answerBegun: boolean): string {
  return answerBegun
    ? 'The client closed the connection while the answer was being sent: it did not receive all of it (an event stream ends this way).'
    : 'The client closed the connection before any answer was sent (a client timeout or a cancelled request, say).';
}

/**
 * Calls `onLeft` if the client leaves before `reply` has finished, at that moment (so that the entry's duration is
 * the time the client waited). A response already closed when the framework gets it (its client left while a
 * fast lane looked up its token) is reported at once. `onLeft` is one shared function: one closure per request.
 */
export function watchClientLeaving(request: FastifyRequest, reply: FastifyReply, onLeft: (request: FastifyRequest, reply: FastifyReply) => void): void {
  // A websocket's upgrade has no answer to cut: its session ends when either side closes it. (Node's parser sets
  // `upgrade` on every request; its types leave it out.)
  if ((request.raw as IncomingMessage & { upgrade?: boolean }).upgrade) return;
  const res = reply.raw;
  const socket = request.raw.socket;
  if (res.closed) {
    if (leftBeforeFinished(res, socket)) onLeft(request, reply);
    return;
  }
  res.on('close', () => {
    if (leftBeforeFinished(res, socket)) onLeft(request, reply);
  });
}
