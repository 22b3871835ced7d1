// `npm run bench [-- NAME ...]`: builds, then runs every scenario (or those named) and prints a table per
// scenario with PASS/MISS verdicts; the same is written as JSON under bench/results/.
import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import { readFileSync } from 'node:fs';
import { formatResult, newResult, writeResults, type ScenarioResult } from './lib/report.js';
import { closeClients } from './lib/http.js';
import { ROOT } from './lib/processes.js';
import { SCENARIOS } from './scenarios/index.js';

function machine(): Record<string, string> {
  const model = /model name\s*:\s*(.+)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpus()[0]?.model ?? 'unknown';
  return { nproc: String(cpus().length), cpu: model, node: process.version, date: new Date().toISOString() };
}

async function main(): Promise<number> {
  const names = process.argv.slice(2);
  const unknown = names.filter((n) => !SCENARIOS.some((s) => s.name === n));
  if (unknown.length > 0) {
    console.error(`unknown scenario ${unknown.join(', ')}; known: ${SCENARIOS.map((s) => s.name).join(', ')}`);
    return 2;
  }
  if (!process.env.BENCH_SKIP_BUILD) execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  const info = machine();
  console.log(`machine: ${info.nproc} cores, ${info.cpu}, Node ${info.node}`);
  const results: ScenarioResult[] = [];
  for (const scenario of SCENARIOS.filter((s) => names.length === 0 || names.includes(s.name))) {
    let result: ScenarioResult;
    try {
      result = await scenario.run();
    } catch (err) {
      result = newResult(scenario.name, scenario.title);
      result.checks.push({ target: 'scenario ran', actual: 0, limit: 1, kind: 'min', unit: '', pass: false });
      result.notes.push(`failed: ${(err as Error).stack ?? String(err)}`);
    }
    results.push(result);
    console.log(formatResult(result));
  }
  closeClients();
  const file = writeResults(results, info);
  const misses = results.flatMap((r) => r.checks.filter((c) => !c.pass).map((c) => `${r.name}: ${c.target}`));
  console.log(`\nresults: ${file}`);
  console.log(misses.length === 0 ? 'all targets met' : `missed: ${misses.join('; ')}`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
