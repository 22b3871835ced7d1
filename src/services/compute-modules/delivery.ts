// A poll's answer that left the server may still never be read (issue 10, item 5). Before it is written out,
// clientGone (client-gone.ts) sees the client leave. After, one sign remains: the client's end resets the
// connection (TCP RST), which a closing socket does when our answer is still unread in its buffers; a client
// that read it and closes sends an ordinary FIN. So the connection is watched from the answer until the next
// poll on it (HTTP/1.1 sends the next request only after reading the last answer) or its close. Anything
// this misses (a reader that drops the bytes and closes cleanly) is the module-gone lease's (liveness.ts).
import type { Socket } from 'node:net';

/** One watch per connection: the answer most recently written on it. */
const watches = new WeakMap<Socket, () => void>();

/** A poll arrived on `socket`: whatever was answered on it before was read. */
export function pollArrived(socket: Socket): void {
  watches.get(socket)?.();
}

/** Calls `onUnread` if `socket` is reset before the next poll arrives on it. */
export function watchDelivery(socket: Socket, onUnread: () => void): void {
  pollArrived(socket);
  const onClose = (hadError: boolean) => {
    stop();
    if (hadError) onUnread();
  };
  const stop = () => {
    socket.removeListener('close', onClose);
    if (watches.get(socket) === stop) watches.delete(socket);
  };
  socket.once('close', onClose);
  watches.set(socket, stop);
}
