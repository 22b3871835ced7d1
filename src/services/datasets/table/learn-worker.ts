// The table worker's side of a CSV upload's learning (csv-learner.ts on the main thread, csv-learn-feed.ts for
// the work): one upload at a time, between reads, while the main thread lends this worker to it.
import { ProfileFeed } from './csv-learn-feed.js';
import type { FromWorker, ToWorker } from './worker-protocol.js';

let feed: ProfileFeed | undefined;
/** The learning `feed` is for: a lent worker serves one at a time, and each begins where the last stopped. */
let session = 0;

export function learnMessage(
  message: Extract<ToWorker, { kind: 'learn' | 'learn-end' | 'learn-stop' }>,
  post: (m: FromWorker, transfer?: ArrayBuffer[]) => void,
): void {
  if (message.kind === 'learn-stop') {
    feed = undefined;
    return;
  }
  if (message.session !== session) {
    session = message.session;
    feed = new ProfileFeed();
  }
  if (message.kind === 'learn-end') {
    const profile = feed?.end();
    feed = undefined;
    post({ kind: 'profile', session, profile: profile ?? null });
    return;
  }
  // A chunk after its learning's end (none are sent) or after a failure is ignored by the feed.
  feed?.push(Buffer.from(message.data, 0, message.length));
  // The feed copies what it keeps of a chunk, so the buffer goes back at once.
  post({ kind: 'learn-ack', session, data: message.data }, [message.data]);
}
