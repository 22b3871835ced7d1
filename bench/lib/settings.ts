// Run-length knobs, from the environment so a quick look and a careful run use the same code.
const num = (name: string, fallback: number): number => {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name}: "${raw}" is not a positive number`);
  return value;
};

export const settings = {
  /** Interleaved rounds per subject. */
  rounds: num('BENCH_ROUNDS', 4),
  /** Seconds per load run. */
  durationS: num('BENCH_DURATION_S', 3),
  warmupS: num('BENCH_WARMUP_S', 1),
  connections: num('BENCH_CONNECTIONS', 10),
  /** Live tokens for the getCurrent scenario and users for the seed scenarios. */
  liveTokens: num('BENCH_LIVE_TOKENS', 10_000),
  seedUsers: num('BENCH_SEED_USERS', 10_000),
  /** Tokens minted by the memory scenario. */
  memoryTokens: num('BENCH_MEMORY_TOKENS', 1_000_000),
  /** Samples for latency scenarios measured one request at a time. */
  samples: num('BENCH_SAMPLES', 2000),
};
