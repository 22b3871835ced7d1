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

/** The stream pino writes to: `write(line)` takes one serialized line, newline included. */
export const stdoutLines = {
  write(line: string): boolean {
    // At most 3 bytes of UTF-8 per UTF-16 unit: a line that might not fit sends what is pending first.
    if (used + line.length * 3 > MAX_PENDING_BYTES) {
      flush();
      if (line.length * 3 > MAX_PENDING_BYTES) {
        process.stdout.write(line);
        return true;
      }
    }
    used += pending.write(line, used, 'utf8');
    if (!scheduled) {
      scheduled = true;
      setTimeout(flush, FLUSH_AFTER_MS).unref();
    }
    if (!exitHooked) {
      exitHooked = true;
      process.once('exit', flush);
    }
    return true;
  },
  /** Writes what is pending now (before printing on stdout by other means, so that order holds). */
  flush,
};
