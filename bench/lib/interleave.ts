// The added cost of one request kind over another, measured so that noise on a shared machine falls on both
// alike: the two are timed in alternating pairs (the order flipped every pair), in several rounds; each round
// gives the difference of the p50s, and the answer is the median of those differences (one noisy round moves
// it little). Used where a target is a small difference of two round trips (docs/functions.md, "Bench").
import { percentile } from './load.js';
import { timeOnce } from './latency.js';

export interface Overhead {
  /** Median over rounds of (p50 of b) - (p50 of a), in ms. */
  medianDiffMs: number;
  /** Each round's difference, in ms. */
  roundDiffsMs: number[];
  /** p50 of a and of b over every sample. */
  aP50Ms: number;
  bP50Ms: number;
}

const p50 = (times: number[]) =>
  percentile(
    [...times].sort((x, y) => x - y),
    50,
  );

export async function interleavedOverhead(a: () => Promise<void>, b: () => Promise<void>, rounds: number, pairsPerRound: number): Promise<Overhead> {
  const allA: number[] = [];
  const allB: number[] = [];
  const roundDiffsMs: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const ta: number[] = [];
    const tb: number[] = [];
    for (let i = 0; i < pairsPerRound; i++) {
      if ((i + r) % 2 === 0) {
        ta.push(await timeOnce(a));
        tb.push(await timeOnce(b));
      } else {
        tb.push(await timeOnce(b));
        ta.push(await timeOnce(a));
      }
    }
    roundDiffsMs.push(p50(tb) - p50(ta));
    allA.push(...ta);
    allB.push(...tb);
  }
  const sorted = [...roundDiffsMs].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  const medianDiffMs = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { medianDiffMs, roundDiffsMs, aP50Ms: p50(allA), bP50Ms: p50(allB) };
}
