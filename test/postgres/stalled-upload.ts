// A one-call dataset upload whose body stops halfway: the instance has opened its transaction and waits for the
// rest, as it would for a slow client, until `finish` sends it (or the instance is killed meanwhile).
import { connect, type Socket } from 'node:net';

export interface StalledUpload {
  socket: Socket;
  /** Sends the rest of the body; the answer's status. */
  finish(): Promise<number>;
}

const FIRST_PART = 'a\n' + '1\n'.repeat(32 * 1024);
const REST = '2\n'.repeat(32 * 1024);

/** Starts `POST .../files/{path}/upload?branchName={branch}` on `baseUrl` and sends half the body. */
export async function stalledUpload(baseUrl: string, token: string, datasetRid: string, path: string, branch: string): Promise<StalledUpload> {
  const url = new URL(baseUrl);
  const socket = connect(Number(url.port), '127.0.0.1');
  socket.on('error', () => undefined); // the instance may be killed under it
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  let answer = '';
  const answered = new Promise<number>((resolve) =>
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(answer);
      if (status && answer.includes('\r\n\r\n')) resolve(Number(status[1]));
    }),
  );
  socket.write(
    `POST /api/v2/datasets/${datasetRid}/files/${path}/upload?branchName=${branch} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n` +
      `Content-Type: application/octet-stream\r\nContent-Length: ${FIRST_PART.length + REST.length}\r\n\r\n${FIRST_PART}`,
  );
  return {
    socket,
    finish: async () => {
      socket.write(REST);
      return answered;
    },
  };
}
