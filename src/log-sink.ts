// Where log lines go by default: stdout, in batches. A line waits at most FLUSH_AFTER_MS, and the lines logged
// meanwhile leave in one write, so under load many lines share a system call instead of paying one each (the
// errorInstanceId line of every 4xx, CONTRACTS §1, was ~5% of a bad request's CPU in a profile, half of it the
// write; flushing at the end of each event-loop turn batched too few lines to matter). Lines still pending
// when the process exits are written from the 'exit' hook: process.stdout writes synchronously on Linux
// (files, pipes and terminals alike), so none is lost on `process.exit` or a crash; a SIGKILL loses at most
// the last FLUSH_AFTER_MS of lines.

const FLUSH_AFTER_MS = 10;
/** Flush early past this size, so that a burst of lines never holds much memory. */
const MAX_PENDING_CHARS = 64 * 1024;

let pending = '';
let scheduled = false;
let exitHooked = false;

function flush(): void {
  scheduled = false;
  if (pending === '') return;
  const text = pending;
  pending = '';
  process.stdout.write(text);
}

/** The stream pino writes to: `write(line)` takes one serialized line, newline included. */
export const stdoutLines = {
  write(line: string): boolean {
    pending += line;
    if (pending.length >= MAX_PENDING_CHARS) flush();
    else if (!scheduled) {
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
