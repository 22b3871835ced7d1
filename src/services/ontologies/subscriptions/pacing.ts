// When an ontology's delivery runs start (docs/live-ontology.md, "Pacing"). A run is one socket write per
// subscriber whatever it carries, so under a stream of changes runs are spaced and each carries every change of
// its spell. The spacing follows the last run's length: a run that took long is followed by a longer wait, so
// that delivering takes at most `share` of the thread and a saturated server sends fewer, fuller messages
// instead of growing a queue in front of everything else (the edits themselves included). It never exceeds
// `maxGapMs`: latency is the wait plus the run, so the wait is capped well under the 50 ms target.

export interface PacingOptions {
  /** The least time between two runs' starts while changes keep coming. */
  minGapMs: number;
  /** The most a run is held back after the last run's start, however long that run took. */
  maxGapMs: number;
  /** The share of the thread runs may take: the next run starts no sooner than runMs / share after the last began. */
  share: number;
}

export const DEFAULT_PACING: PacingOptions = { minGapMs: 10, maxGapMs: 40, share: 0.5 };

/** The least time from a run's start to the next's, given how long the run took. */
export function gapAfter(runMs: number, pacing: PacingOptions): number {
  return Math.min(pacing.maxGapMs, Math.max(pacing.minGapMs, runMs / pacing.share));
}

/**
 * Starts `run` when changes ask for it: at once after a quiet spell, else once the gap after the last run's
 * start has passed. Requests while one is waiting are that one (the run takes every change so far); requests
 * during a run wait for its end, so that the gap they get follows that run's length.
 */
export class RunPacer {
  private wanted = false;
  private running = false;
  private lastStart = -Infinity;
  private gapMs: number;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly pacing: PacingOptions,
    /** Starts one run; its owner calls `ended` when it is over, whatever its outcome. */
    private readonly run: () => void,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.gapMs = pacing.minGapMs;
  }

  /** What the next run waits for after the last one's start. */
  get currentGapMs(): number {
    return this.gapMs;
  }

  request(): void {
    if (this.wanted) return;
    this.wanted = true;
    if (!this.running) this.schedule();
  }

  /** The run is over: the next gap follows how long it took, and a run asked for meanwhile is scheduled. */
  ended(): void {
    this.running = false;
    this.gapMs = gapAfter(this.now() - this.lastStart, this.pacing);
    if (this.wanted) this.schedule();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    const wait = this.lastStart + this.gapMs - this.now();
    if (wait <= 0) return this.start();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.start();
    }, wait).unref();
  }

  private start(): void {
    this.wanted = false;
    this.running = true;
    this.lastStart = this.now();
    this.run();
  }
}
