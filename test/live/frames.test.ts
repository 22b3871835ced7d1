// The frames a subscriber's transport writes (src/services/ontologies/subscriptions/frames.ts): each message is
// one websocket text frame, read back by ws's own client-side receiver at every length form (7-bit, 16-bit and
// 64-bit lengths), and one server-sent event; pieces and text of the same JSON give the same bytes.
import { describe, expect, it } from 'vitest';
import * as ws from 'ws';
import { sizeOf, sseEvent, textFrame } from '../../src/services/ontologies/subscriptions/frames.js';

/** ws's frame reader (exported by the package, not named in its type declarations). */
interface FrameReader {
  on(event: string, listener: (...args: never[]) => void): void;
  write(bytes: Buffer): void;
}
const { Receiver } = ws as unknown as { Receiver: new (options: { isServer: boolean }) => FrameReader };

/** What ws, reading as a client reads a server, makes of these bytes. */
function received(bytes: Buffer): Array<{ text: string; isBinary: boolean }> {
  const receiver = new Receiver({ isServer: false });
  const out: Array<{ text: string; isBinary: boolean }> = [];
  receiver.on('message', (data: Buffer, isBinary: boolean) => out.push({ text: data.toString('utf8'), isBinary }));
  receiver.on('error', (err: Error) => {
    throw err;
  });
  receiver.write(bytes);
  return out;
}

const json = (n: number) => JSON.stringify({ type: 'objectSetChanged', id: 'x', updates: [{ name: 'é'.repeat(n) }] });

describe('subscriber frames', () => {
  for (const length of [0, 10, 60, 62, 63, 40_000, 70_000])
    it(`a text frame around ${length} characters reads back as the same text`, () => {
      const text = json(length);
      const bytes = Buffer.from(text);
      // The same JSON as pieces (head, shared updates, brace), cut at arbitrary places.
      const pieces = [bytes.subarray(0, 7), bytes.subarray(7, bytes.length - 1), bytes.subarray(bytes.length - 1)];
      expect(received(textFrame(text))).toEqual([{ text, isBinary: false }]);
      expect(textFrame(pieces)).toEqual(textFrame(text));
      expect(sizeOf(pieces)).toBe(bytes.length);
    });

  it('two frames back to back read as two messages, in order', () => {
    const frames = Buffer.concat([textFrame('{"a":1}'), textFrame([Buffer.from('{"b":'), Buffer.from('2}')])]);
    expect(received(frames).map((m) => m.text)).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('a server-sent event holds the message on one data line', () => {
    expect(sseEvent([Buffer.from('{"a":'), Buffer.from('"é"}')]).toString('utf8')).toBe('data: {"a":"é"}\n\n');
    expect(sseEvent('{"a":1}').toString('utf8')).toBe('data: {"a":1}\n\n');
  });
});
