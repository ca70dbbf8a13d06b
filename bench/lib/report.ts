import type { LoadRun } from './http-load';

/** A plain-text table: the first column left-aligned, the figures right-aligned, a rule under the header. */
export function table(rows: string[][]): string[] {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  const line = (row: string[]) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  return [line(rows[0]), line(widths.map((w) => '-'.repeat(w))), ...rows.slice(1).map(line)];
}

export const LOAD_RUN_HEADER = ['requests/s', 'p50 ms', 'p99 ms', 'server CPU µs/req', 'non-2xx', 'errors'];

/** requests/s, p50 ms, p99 ms, server CPU µs/req. */
export function rateCells(run: LoadRun): string[] {
  return [
    run.requestsPerSecond.toFixed(0),
    run.p50Ms.toFixed(2),
    run.p99Ms.toFixed(2),
    run.cpuMicrosPerRequest.toFixed(0),
  ];
}

/** The cells of LOAD_RUN_HEADER. */
export function loadRunCells(run: LoadRun): string[] {
  return [...rateCells(run), String(run.non2xx), String(run.errors)];
}

/** "ratio app/bare: 0.31 (target >= 0.50: BELOW target)": the figure against its same-run baseline. */
export function ratioLine(name: string, ratio: number, target: number | null, digits = 2): string {
  const verdict = target === null ? '' : ` (target >= ${target.toFixed(2)}: ${meets(ratio >= target)})`;
  return `ratio ${name}: ${ratio.toFixed(digits)}${verdict}`;
}

export function meets(ok: boolean): string {
  return ok ? 'meets target' : 'BELOW target';
}

/** "runs, requests/s: bare 1, 2; app 3, 4". */
export function runsLine(
  unit: string,
  series: Record<string, number[]>,
  format = (value: number) => value.toFixed(0),
): string {
  const parts = Object.entries(series).map(([name, values]) => `${name} ${values.map(format).join(', ')}`);
  return `runs, ${unit}: ${parts.join('; ')}`;
}
