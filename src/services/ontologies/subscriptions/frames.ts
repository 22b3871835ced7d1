// The bytes a subscriber's transport writes for one server message (docs/live-ontology.md), built in one buffer
// so that a message is one socket write. A server's websocket frames are not masked (RFC 6455 §5.1), so a text
// frame is a 2-10 byte head and the message's bytes; ws's own send wrote the head and the payload as two writes
// under cork, one `writev` per message, and a delivery run is a write per subscriber. A message is JSON text,
// or its UTF-8 bytes in pieces (a subscriber's head, the set's shared update bytes, a brace).
/**
 * One server message: JSON text, or its UTF-8 bytes in pieces (a delivery shares the set's update bytes among
 * its subscribers: only the head differs), which the transport writes together as one message (frames.ts).
 */
export type OutMessage = string | readonly Buffer[];

const FIN_TEXT = 0x81;

/** The message's bytes in its pieces, and their total length. */
function piecesOf(message: OutMessage): { pieces: readonly Buffer[]; length: number } {
  if (typeof message === 'string') {
    const bytes = Buffer.from(message);
    return { pieces: [bytes], length: bytes.length };
  }
  let length = 0;
  for (const piece of message) length += piece.length;
  return { pieces: message, length };
}

/** One websocket text frame (FIN set, unmasked) holding the message. */
export function textFrame(message: OutMessage): Buffer {
  const { pieces, length } = piecesOf(message);
  const headLength = length < 126 ? 2 : length < 0x10000 ? 4 : 10;
  const frame = Buffer.allocUnsafe(headLength + length);
  frame[0] = FIN_TEXT;
  if (headLength === 2) frame[1] = length;
  else if (headLength === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  let at = headLength;
  for (const piece of pieces) at += piece.copy(frame, at);
  return frame;
}

const SSE_DATA = Buffer.from('data: ');
const SSE_END = Buffer.from('\n\n');

/** One server-sent event whose data is the message (JSON text holds no raw newline, so one `data:` line). */
export function sseEvent(message: OutMessage): Buffer {
  const { pieces, length } = piecesOf(message);
  return Buffer.concat([SSE_DATA, ...pieces, SSE_END], SSE_DATA.length + length + SSE_END.length);
}

/** The message's length in bytes (UTF-16 units for text: what the high-water accounting has always counted). */
export function sizeOf(message: OutMessage): number {
  if (typeof message === 'string') return message.length;
  let length = 0;
  for (const piece of message) length += piece.length;
  return length;
}
