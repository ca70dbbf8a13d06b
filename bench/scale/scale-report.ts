import { type Machine, machineLine } from '../lib/machine';
import type { ScaleChecks } from './scale-checks';

export interface ScaleStep {
  instances: number;
  getPerSecond: number;
  getP99Ms: number;
  get2xxShare: number;
  ingestPerSecond: number;
  ingestP99Ms: number;
}

export interface ScaleReport {
  machine: Machine;
  options: { seconds: number; connections: number; records: number; maxInstances: number; bodyRecords: number };
  steps: ScaleStep[];
  checks: ScaleChecks;
}

/** Step 1 (one instance) is the same-run baseline of the steps after it. */
export function formatScaleReport(report: ScaleReport): string {
  const { options: o, steps, checks: c } = report;
  const [one] = steps;
  const rows = steps.map(
    (s) =>
      `| ${s.instances} | ${s.getPerSecond} | ${s.getP99Ms.toFixed(1)} | ${(100 * s.get2xxShare).toFixed(1)}% | ${s.ingestPerSecond} | ${s.ingestP99Ms.toFixed(0)} |` +
      ` ${(s.getPerSecond / one.getPerSecond).toFixed(2)} | ${(s.ingestPerSecond / one.ingestPerSecond).toFixed(2)} |`,
  );
  const once = (a: number, b: number) => (a === b ? 'each once' : 'MISMATCH');
  return [
    machineLine(report.machine),
    `GET /v1/trunks?limit=20: ${o.connections} connections split over the instances, ${o.seconds} s each; ingestion: ${o.records} records per step in bodies of ${o.bodyRecords}`,
    '',
    '| instances | GET req/s (sum) | GET p99 ms (worst) | GET 2xx | ingest records/s | ingest p99 ms | GET ratio to 1 | ingest ratio to 1 |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    `records sent ${c.recordsSent}, counted over all instances ${c.recordsCounted} (${once(c.recordsSent, c.recordsCounted)});` +
      ` events stored ${c.eventsStored}, applied to the read models ${c.eventsApplied} (${once(c.eventsStored, c.eventsApplied)})`,
    '',
  ].join('\n');
}
