// Raw HTTP/1.1 over node:net, for what a client library would refuse to send or hide: framing, oversize
// headers, unknown methods, and whether the server closed the connection.
import net from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Whether the server closed the connection. */
  closed: boolean;
}

/** Parses the first answer in `text` (latin1). */
export function parseAnswer(text: string, closed: boolean): RawAnswer {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no answer: ${JSON.stringify(text.slice(0, 200))}`);
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine!.split(' ')[1]), headers, body: text.slice(end + 4), closed };
}

/**
 * Reads the first answer on `socket` until the server closes or `waitMs` passes; once `ready` fires, `send`
 * writes the request (all at once or slowly). Plain and TLS sockets alike.
 */
export function exchangeOn(
  socket: net.Socket,
  ready: 'connect' | 'secureConnect',
  send: (write: (bytes: string | Buffer) => void) => void | Promise<void>,
  waitMs: number,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let closed = false;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      try {
        resolve(parseAnswer(Buffer.concat(chunks).toString('latin1'), closed));
      } catch (err) {
        reject(err as Error);
      }
    };
    const timer = setTimeout(finish, waitMs);
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closed = true;
      finish();
    });
    socket.once(ready, () => void send((bytes) => !done && socket.write(bytes)));
  });
}

/** Writes `request` as bytes and reads until the server closes or `waitMs` passes. */
export function rawExchange(port: number, request: string | Buffer, waitMs = 2000): Promise<RawAnswer> {
  return exchangeOn(net.connect(port, '127.0.0.1'), 'connect', (write) => write(request), waitMs);
}
