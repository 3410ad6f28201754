/**
 * The benchmark report: one row per figure, with the baseline measured in the same run and
 * their ratio; printed as a table, written as results.json and drawn as results.svg.
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { round3 } from './stats.js';

export interface Target {
  /** What the target is about: the ratio ours/baseline, our own figure, or ours minus baseline. */
  on: 'ratio' | 'ours' | 'difference';
  op: '>=' | '<=' | '<';
  value: number;
}

export interface BenchRow {
  id: string;
  title: string;
  unit: string;
  ours: number;
  baselineName: string;
  baseline: number;
  /** ours / baseline. */
  ratio: number;
  target: Target | null;
  met: boolean | null;
  /** Whatever else was measured (percentiles, per-round samples, counts). */
  details: Record<string, unknown>;
}

export function row(r: Omit<BenchRow, 'ratio' | 'met'>): BenchRow {
  const ratio = r.ours / r.baseline;
  let met: boolean | null = null;
  if (r.target) {
    const value = r.target.on === 'ratio' ? ratio : r.target.on === 'difference' ? r.ours - r.baseline : r.ours;
    met =
      r.target.op === '>='
        ? value >= r.target.value
        : r.target.op === '<='
          ? value <= r.target.value
          : value < r.target.value;
  }
  return { ...r, ratio, met };
}

export function targetText(t: Target | null): string {
  if (!t) return 'reported';
  return `${t.on === 'ratio' ? 'ratio' : t.on === 'difference' ? 'difference' : 'figure'} ${t.op} ${t.value}`;
}

export function printTable(rows: readonly BenchRow[]): void {
  console.table(
    rows.map((r) => ({
      benchmark: r.title,
      unit: r.unit,
      ours: round3(r.ours),
      baseline: `${round3(r.baseline)} (${r.baselineName})`,
      ratio: round3(r.ratio),
      target: targetText(r.target),
      met: r.met === null ? '-' : r.met ? 'yes' : 'NO',
      // Baseline CPU / our CPU per operation, where measured: immune to a busy neighbour.
      'cpu ratio': typeof r.details.cpuCostRatio === 'number' ? round3(r.details.cpuCostRatio) : '-',
    })),
  );
}

export interface RunInfo {
  startedAt: string;
  seconds: number;
  /** Run with --quick's smaller counts. */
  quick?: boolean;
  /** Stopped by the watchdog: only the rows measured before it. */
  incomplete?: boolean;
}

export function writeResults(file: URL, rows: readonly BenchRow[], info: RunInfo, loadBefore: number[]): void {
  const results = {
    generatedBy: 'npm run bench (bench/run.ts)',
    date: info.startedAt,
    node: process.version,
    machine: {
      cpus: cpus().length,
      model: cpus()[0]?.model ?? 'unknown',
      loadAverageBefore: loadBefore.map(round3),
      loadAverageAfter: loadavg().map(round3),
    },
    seconds: round3(info.seconds),
    ...(info.quick ? { quick: true } : {}),
    ...(info.incomplete ? { incomplete: true } : {}),
    benchmarks: rows.map((r) => ({ ...r, goal: targetText(r.target) })),
  };
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
}

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * One bar per row on a linear scale from 0 to 2: the ratio ours / baseline, or, for a target
 * on our own figure (the guard's ns per decision), the figure / the target. The tick is the
 * target; green met, red not met, grey reported only; bars past 2 are cut with an arrow.
 */
export function writeSvg(file: URL, rows: readonly BenchRow[], title: string): void {
  const width = 1200;
  const left = 330;
  const right = 430;
  const barArea = width - left - right;
  const rowHeight = 34;
  const top = 78;
  const height = top + rows.length * rowHeight + 46;
  const max = 2;
  const x = (v: number) => left + (Math.min(max, Math.max(0, v)) / max) * barArea;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="13">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="16" y="28" font-size="17" font-weight="600">${escape(title)}</text>`,
    `<text x="16" y="50" fill="#5b6475">bar: ours / baseline measured in the same run (* = our figure / its target); black tick: target; green met, red not met, grey reported only</text>`,
  ];
  for (const tick of [0, 0.5, 1, 1.5, 2]) {
    parts.push(
      `<line x1="${x(tick)}" y1="${top - 6}" x2="${x(tick)}" y2="${height - 36}" stroke="${tick === 1 ? '#9aa3b2' : '#e6e9ef'}"/>`,
    );
    parts.push(`<text x="${x(tick)}" y="${height - 20}" text-anchor="middle" fill="#5b6475">${tick}</text>`);
  }
  rows.forEach((r, i) => {
    const y = top + i * rowHeight;
    const colour = r.met === null ? '#9aa3b2' : r.met ? '#2e9e5b' : '#d64545';
    const onFigure = r.target?.on === 'ours';
    const value = onFigure && r.target ? r.ours / r.target.value : r.ratio;
    const tickAt = onFigure
      ? 1
      : r.target?.on === 'difference'
        ? (r.baseline + r.target.value) / r.baseline
        : r.target?.value;
    parts.push(`<text x="16" y="${y + 17}">${escape(r.title)}${onFigure ? ' *' : ''}</text>`);
    parts.push(
      `<rect x="${x(0)}" y="${y + 5}" width="${Math.max(2, x(value) - x(0))}" height="16" rx="3" fill="${colour}"/>`,
    );
    if (value > max) parts.push(`<path d="M${x(max) + 2} ${y + 3} l10 10 l-10 10 z" fill="${colour}"/>`);
    if (tickAt !== undefined)
      parts.push(
        `<line x1="${x(tickAt)}" y1="${y + 1}" x2="${x(tickAt)}" y2="${y + 25}" stroke="#1d2330" stroke-width="2.5"/>`,
      );
    const label = onFigure
      ? `${round3(value)} of target: ${round3(r.ours)} ${r.unit}, target ${r.target?.op} ${r.target?.value} (no-op ${round3(r.baseline)})`
      : `${round3(value)}×: ${round3(r.ours)} vs ${round3(r.baseline)} ${r.unit} (${targetText(r.target)})`;
    parts.push(`<text x="${width - right + 18}" y="${y + 17}" font-size="12" fill="#1d2330">${escape(label)}</text>`);
  });
  parts.push('</svg>');
  writeFileSync(file, `${parts.join('\n')}\n`);
}
