export interface FaultRow {
  case: string;
  injected: string;
  /** How long the dependency (or the service) was away, ms. */
  downMs: number;
  requests: number;
  acknowledged: number;
  found: number;
  lost: number;
  duplicated: number;
  /** Slowest answer to a request sent while it was away, ms. */
  maxLatencyDownMs: number;
  /** 503 answers (all with Retry-After) while it was away. */
  unavailable: number;
  /** From its return to the first acknowledged write, ms. */
  recoveryMs: number;
}

const COLUMNS: [keyof FaultRow, string][] = [
  ['case', 'case'],
  ['injected', 'injected'],
  ['downMs', 'down ms'],
  ['requests', 'requests'],
  ['acknowledged', 'acknowledged'],
  ['found', 'found after'],
  ['lost', 'lost'],
  ['duplicated', 'duplicated'],
  ['maxLatencyDownMs', 'max ms while down'],
  ['unavailable', '503 while down'],
  ['recoveryMs', 'recovery ms'],
];

/** A Markdown table, so the output can be pasted into docs/reliability.md as is. */
export function formatFaultTable(rows: FaultRow[]): string {
  const cells = rows.map((row) => COLUMNS.map(([key]) => String(row[key])));
  const head = COLUMNS.map(([, title]) => title);
  const widths = head.map((title, i) => Math.max(title.length, ...cells.map((c) => c[i].length)));
  const line = (values: string[]) => `| ${values.map((v, i) => v.padEnd(widths[i])).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.map(line)].join('\n');
}
