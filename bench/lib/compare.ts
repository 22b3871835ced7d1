// Interleaved rounds: every subject runs once per round, the order alternating (A B, B A, ...), so a drift in
// the shared machine's speed touches all subjects alike and their ratios hold.
import { runLoad, totals, type LoadRun, type LoadSpec, type LoadTotals } from './load.js';
import type { ServerProcess } from './processes.js';
import { settings } from './settings.js';

export interface Subject {
  name: string;
  server: ServerProcess;
  load: LoadSpec;
}

export async function interleave(subjects: Subject[], rounds = settings.rounds, durationS = settings.durationS): Promise<LoadTotals[]> {
  // Warm-up: lets each server's JIT settle before anything is counted.
  for (const s of subjects) await runLoad(s.server, { ...s.load, durationS: settings.warmupS });
  const runs = new Map<string, LoadRun[]>(subjects.map((s) => [s.name, []]));
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? subjects : [...subjects].reverse();
    for (const s of order) runs.get(s.name)!.push(await runLoad(s.server, { ...s.load, durationS }));
  }
  return subjects.map((s) => totals(s.name, runs.get(s.name)!));
}
