// Connections the HTTP layer has answered and is closing (src/http/edge-refusals.ts): a request of theirs that
// is still in a handler (its body was being received when it timed out) has no one left to answer.
import type { Socket } from 'node:net';

export const answeredSockets = new WeakSet<Socket>();
