// What a scenario found, printed as a table and kept as JSON under bench/results/.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { count5xx, type LoadTotals } from './load.js';
import { ROOT } from './processes.js';

export interface Metric {
  name: string;
  value: number;
  unit: string;
  baseline?: number;
}

export interface Check {
  target: string;
  actual: number;
  limit: number;
  /** `max`: actual must be at most limit; `min`: at least. */
  kind: 'max' | 'min';
  unit: string;
  pass: boolean;
}

export interface ScenarioResult {
  name: string;
  title: string;
  skipped?: string;
  /** Load runs; the one named `baseline` is what ratios are taken against. */
  loads: LoadTotals[];
  metrics: Metric[];
  checks: Check[];
  notes: string[];
}

export function newResult(name: string, title: string): ScenarioResult {
  return { name, title, loads: [], metrics: [], checks: [], notes: [] };
}

export function check(result: ScenarioResult, target: string, actual: number, kind: 'max' | 'min', limit: number, unit: string): void {
  const pass = Number.isFinite(actual) && (kind === 'max' ? actual <= limit : actual >= limit);
  result.checks.push({ target, actual, limit, kind, unit, pass });
}

const fmt = (n: number | undefined, digits = 1): string =>
  n === undefined || !Number.isFinite(n) ? '-' : n >= 1000 ? Math.round(n).toLocaleString('en-US') : n.toFixed(digits);

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ')).join('\n');
}

export function formatResult(result: ScenarioResult): string {
  const lines = [`\n== ${result.name}: ${result.title}`];
  if (result.skipped) return [...lines, `skipped: ${result.skipped}`].join('\n');
  if (result.loads.length > 0) {
    const base = result.loads.find((l) => l.subject === 'baseline');
    const rows = [['server', 'req/s', 'x base', 'p50 ms', 'p99 ms', 'CPU us/req', 'x base', 'statuses']];
    for (const l of result.loads) {
      const statuses =
        Object.entries(l.statuses)
          .map(([c, n]) => `${c}:${n}`)
          .join(' ') + (l.errors ? ` errors:${l.errors}` : '');
      rows.push([
        l.subject,
        fmt(l.rps, 0),
        base ? fmt(l.rps / base.rps, 2) : '-',
        fmt(l.p50Ms),
        fmt(l.p99Ms),
        fmt(l.cpuUsPerRequest),
        base ? fmt(l.cpuUsPerRequest / base.cpuUsPerRequest, 2) : '-',
        statuses,
      ]);
    }
    lines.push(table(rows));
  }
  if (result.metrics.length > 0) {
    const rows = [['measure', 'value', 'unit', 'baseline', 'ratio']];
    for (const m of result.metrics) rows.push([m.name, fmt(m.value, 2), m.unit, fmt(m.baseline, 2), m.baseline ? fmt(m.value / m.baseline, 2) : '-']);
    lines.push(table(rows));
  }
  for (const c of result.checks) {
    lines.push(
      `${c.pass ? 'PASS' : 'MISS'}  ${c.target}: ${fmt(c.actual, 2)} ${c.unit} (target ${c.kind === 'max' ? '<=' : '>='} ${fmt(c.limit, 2)} ${c.unit})`,
    );
  }
  for (const n of result.notes) lines.push(`note: ${n}`);
  return lines.join('\n');
}

export function no5xxCheck(result: ScenarioResult, load: LoadTotals): void {
  check(result, `${load.subject}: 5xx answers`, count5xx(load.statuses), 'max', 0, 'responses');
}

export function writeResults(results: ScenarioResult[], machine: Record<string, string>): string {
  const dir = join(ROOT, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({ machine, results }, null, 2) + '\n');
  return file;
}
