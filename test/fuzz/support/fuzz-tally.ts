import type { RequestPlan } from './request-plan';
import type { Violation } from './response-check';

interface OperationTally {
  requests: number;
  ok: number;
  errors: Map<number, number>;
  server: number;
  violations: number;
}

export interface Finding {
  operation: string;
  plan: RequestPlan;
  status: number;
  violation: Violation;
  seed: number;
}

/** Counts per operation, and the first findings in full (for reproduction). */
export class FuzzTally {
  private readonly byOperation = new Map<string, OperationTally>();
  readonly findings: Finding[] = [];
  /** Findings beyond the ones kept, counted only. */
  droppedFindings = 0;
  /** 503s with Retry-After that were sent once more (see sendOnceMore503). */
  retried503 = 0;

  constructor(operations: string[]) {
    for (const op of operations)
      this.byOperation.set(op, { requests: 0, ok: 0, errors: new Map(), server: 0, violations: 0 });
  }

  record(operation: string, status: number, violations: Violation[], plan: RequestPlan, seed: number): void {
    const t = this.byOperation.get(operation)!;
    t.requests++;
    if (status >= 200 && status < 300) t.ok++;
    else if (status >= 500) t.server++;
    else t.errors.set(status, (t.errors.get(status) ?? 0) + 1);
    t.violations += violations.length;
    for (const violation of violations) {
      if (this.findings.length < 50) this.findings.push({ operation, plan, status, violation, seed });
      else this.droppedFindings++;
    }
  }

  get total(): { requests: number; ok: number; server: number; violations: number } {
    let requests = 0,
      ok = 0,
      server = 0,
      violations = 0;
    for (const t of this.byOperation.values()) {
      requests += t.requests;
      ok += t.ok;
      server += t.server;
      violations += t.violations;
    }
    return { requests, ok, server, violations };
  }

  /** Operations that documented a success but never reached one (the fuzzer did not get deep). */
  neverSucceeded(): string[] {
    return [...this.byOperation.entries()].filter(([, t]) => t.requests > 0 && t.ok === 0).map(([op]) => op);
  }

  table(): string {
    const rows = [...this.byOperation.entries()].map(([op, t]) => [
      op,
      String(t.requests),
      String(t.ok),
      [...t.errors.entries()]
        .sort(([a], [b]) => a - b)
        .map(([code, n]) => `${code}:${n}`)
        .join(' '),
      String(t.server),
      String(t.violations),
    ]);
    const total = this.total;
    rows.push(['total', String(total.requests), String(total.ok), '', String(total.server), String(total.violations)]);
    const header = ['operation', 'requests', '2xx', '4xx by code', '5xx', 'violations'];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const line = (cells: string[]) =>
      `| ${cells.map((c, i) => (i === 0 || i === 3 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
    const table = [
      line(header),
      `|${widths.map((w, i) => (i === 0 || i === 3 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
      ...rows.map(line),
    ].join('\n');
    return `${table}\n503 with Retry-After sent once more: ${this.retried503}`;
  }

  describeFindings(): string {
    return (
      this.findings
        .map(
          (f) =>
            `- ${f.operation} [${f.violation.kind}] seed ${f.seed} ${f.plan.kind}/${f.plan.note} key=${f.plan.keyLabel}\n    ${f.plan.method} ${f.plan.url.slice(0, 200)}\n    body: ${String(f.plan.body ?? '').slice(0, 300)}\n    → ${f.status}: ${f.violation.detail}`,
        )
        .join('\n') + (this.droppedFindings ? `\n(${this.droppedFindings} more not shown)` : '')
    );
  }
}
