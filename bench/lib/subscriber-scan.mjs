// How the bench's subscribers read a message (bench/lib/subscriber-worker.mjs), apart so that a test can check
// it. At the full size a full JSON.parse per message was ~60% of the subscriber thread's busy time, with the
// thread near 100% busy: the latencies were partly its own backlog (docs/live-ontology.md, Bench). An
// objectSetChanged message as the server writes it is therefore read by scanning its bytes: each update starts
// with UPDATE, and its object's `name` (where the edit's send time rides) is found before the next update.
// Any other message, or one laid out otherwise, is parsed in full. test/live/bench-scan.test.ts
// checks that both readings agree. The latency is still taken when the message event fires.
const CHANGED = Buffer.from('{"type":"objectSetChanged",');
const UPDATE = Buffer.from('{"type":"object","state":"');
const NAME = Buffer.from('"name":"');
const STAMPS = Buffer.from('"benchTimes":[');
const HEAD = 192;
const QUOTE = 0x22;
const AT = 0x40;

/**
 * Per update of an objectSetChanged message, the send time its object's name carries (NaN: none); undefined for
 * any other message, or one with no update where the scan looks (the server never sends an empty one).
 */
export function scanUpdates(data) {
  /** @type {number[]} */
  const sent = [];
  if (!data.subarray(0, CHANGED.length).equals(CHANGED)) return undefined;
  let at = data.indexOf(UPDATE);
  if (at === -1) return undefined;
  while (at !== -1) {
    const next = data.indexOf(UPDATE, at + UPDATE.length);
    const end = next === -1 ? data.length : next;
    // Bounded by the next update's start: an update without a name must not send the search to the end.
    const name = data.subarray(0, end).indexOf(NAME, at);
    let time = NaN;
    if (name !== -1 && name < end) {
      const from = name + NAME.length;
      const close = data.indexOf(QUOTE, from);
      const mark = data.indexOf(AT, from);
      if (mark !== -1 && mark < close) time = Number(data.toString('latin1', mark + 1, close));
    }
    sent.push(time);
    at = next;
  }
  return sent;
}

/** The server's stamps (EMULATOR_BENCH_STAMPS=1), if the message carries them. */
export function scanStamps(data) {
  // In the head only (type, id, stamps: well under HEAD bytes), not through the updates.
  const at = data.subarray(0, HEAD).indexOf(STAMPS);
  if (at === -1) return undefined;
  const from = at + STAMPS.length;
  return data.toString('latin1', from, data.indexOf(0x5d, from)).split(',').map(Number);
}

/** The same reading by a full JSON.parse: for any message not laid out as scanUpdates expects. */
export function parseUpdates(m) {
  return (m.updates ?? []).map((u) => {
    const at = u.object?.name?.split('@')[1];
    return at === undefined ? NaN : Number(at);
  });
}
