// Where log lines go by default: stdout, in batches. A line waits at most FLUSH_AFTER_MS, and the lines logged
// meanwhile leave in one write, so under load many lines share a system call instead of paying one each (the
// errorInstanceId line of every 4xx, docs/contracts.md §1, was ~5% of a bad request's CPU in a profile, half of it the
// write; flushing at the end of each event-loop turn batched too few lines to matter). Lines still pending
// when the process exits are written from the 'exit' hook: process.stdout writes synchronously on Linux
// (files, pipes and terminals alike), so none is lost on `process.exit` or a crash; a SIGKILL loses at most
// the last FLUSH_AFTER_MS of lines.

const FLUSH_AFTER_MS = 10;
/** Flush early at this size, so that a burst of lines never holds much memory. */
const MAX_PENDING_BYTES = 64 * 1024;

// Pending lines are encoded into one buffer as they come, and the buffer is what leaves: kept as a string,
// the batch was a rope of hundreds of lines that the write had to flatten and then encode (half of the
// flush's cost in a profile of refused requests, each of which logs a line).
let pending = Buffer.allocUnsafe(MAX_PENDING_BYTES);
let used = 0;
let scheduled = false;
let exitHooked = false;

function flush(): void {
  scheduled = false;
  if (used === 0) return;
  const out = pending.subarray(0, used);
  // A fresh buffer: a stream may hold on to the one it was given until its write completes.
  pending = Buffer.allocUnsafe(MAX_PENDING_BYTES);
  used = 0;
  process.stdout.write(out);
}

/** After bytes were added: the flush is scheduled, and the exit hook set. */
function added(): void {
  if (!scheduled) {
    scheduled = true;
    setTimeout(flush, FLUSH_AFTER_MS).unref();
  }
  if (!exitHooked) {
    exitHooked = true;
    process.once('exit', flush);
  }
}

/** Room for `bytes` more in the pending buffer (what is pending leaves first when they would not fit). */
function room(bytes: number): boolean {
  if (used + bytes <= MAX_PENDING_BYTES) return true;
  flush();
  return bytes <= MAX_PENDING_BYTES;
}

/** The stream pino writes to: `write(line)` takes one serialized line, newline included. */
export const stdoutLines = {
  write(line: string): boolean {
    // At most 3 bytes of UTF-8 per UTF-16 unit: a line that might not fit sends what is pending first.
    if (!room(line.length * 3)) {
      process.stdout.write(line);
      return true;
    }
    used += pending.write(line, used, 'utf8');
    added();
    return true;
  },
  /** A line of `head`, the decimal digits of `time` (a non-negative integer), `middle` and `tail`, copied as bytes. */
  writeTimed(head: Uint8Array, time: number, middle: string, tail: Uint8Array): void {
    if (!room(head.length + MAX_TIME_DIGITS + middle.length * 3 + tail.length)) {
      process.stdout.write(Buffer.concat([head, Buffer.from(String(time) + middle), tail]));
      return;
    }
    pending.set(head, used);
    used = writeDigits(pending, used + head.length, time);
    if (middle.length > 0) writeText(middle);
    pending.set(tail, used);
    used += tail.length;
    added();
  },
  /** Writes what is pending now (before printing on stdout by other means, so that order holds). */
  flush,
};

/** Short text: ASCII copied a byte per character (cheaper than a call into the encoder), anything else encoded. */
function writeText(text: string): void {
  const start = used;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x80) {
      used = start + pending.write(text, start, 'utf8');
      return;
    }
    pending[used++] = code;
  }
}

/** Digits of a millisecond time (Date.now(): 13 until the year 2286; 16 is any safe integer's most). */
const MAX_TIME_DIGITS = 16;

function writeDigits(out: Buffer, at: number, value: number): number {
  let digits = 1;
  for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits++;
  for (let i = at + digits - 1, rest = value; i >= at; i--, rest = Math.floor(rest / 10)) out[i] = 0x30 + (rest % 10);
  return at + digits;
}
