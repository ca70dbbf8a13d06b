import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FaultEnvironment } from './fault-env';
import { type FaultOutcome, runFaultCase } from './fault-case';
import { FAULT_CASES } from './fault-cases';
import { formatFaultTable, type FaultRow } from './fault-table';

/**
 * FAULT_CASES="redis restart,kill during replay" runs only those (by name); FAULT_REPEAT=n runs
 * each selected case n times (hunting a rare race); FAULT_LOG_DIR=dir keeps the service's log of each case.
 */
const only = process.env.FAULT_CASES?.split(',').map((name) => name.trim());
const repeat = Math.max(1, Number(process.env.FAULT_REPEAT ?? 1));
const selected = (only ? FAULT_CASES.filter((c) => only.includes(c.name)) : FAULT_CASES).flatMap((c) =>
  Array.from({ length: repeat }, (_, i) => (i === 0 ? c : { ...c, name: `${c.name} #${i + 1}` })),
);

describe('fault suite: no acknowledged write lost, nothing counted twice, 503s not hangs, recovery by itself', () => {
  let env: FaultEnvironment;
  const rows: FaultRow[] = [];

  beforeAll(async () => {
    env = await FaultEnvironment.start();
  });

  afterAll(async () => {
    if (rows.length > 0) process.stdout.write(`\nFault suite\n\n${formatFaultTable(rows)}\n\n`);
    await env?.stop();
  });

  it.each(selected.map((c) => [c.name, c] as const))('%s', async (_name, spec) => {
    const logFrom = env.output().length;
    const outcome: FaultOutcome = await runFaultCase(env, spec);
    if (process.env.FAULT_LOG_DIR)
      writeFileSync(
        join(process.env.FAULT_LOG_DIR, `${spec.name.replace(/\W+/g, '-')}.log`),
        env.output().slice(logFrom),
      );
    rows.push(outcome.row);
    const broken = `broken from ${new Date(outcome.window[0]).toISOString()} to ${new Date(outcome.window[1]).toISOString()}`;
    expect({
      lost: outcome.verification.lost.slice(0, 20),
      duplicated: outcome.verification.duplicated.slice(0, 20),
      unexpected: outcome.unexpected.slice(0, 20),
      broken,
    }).toEqual({ lost: [], duplicated: [], unexpected: [], broken });
    expect(outcome.strayConnectionErrors).toBe(0);
    expect(outcome.row.acknowledged).toBeGreaterThan(0);
    expect(outcome.row.found).toBe(outcome.row.acknowledged);
    // A hang is an answer never given (status -1 in `unexpected` above); how long answers took
    // while broken and how soon writes came back are figures of the table, not assertions (a busy
    // machine stretches both). Recovered: a write sent after the repair was acknowledged (-1: none
    // within the settle deadline).
    expect(outcome.row.recoveryMs).toBeGreaterThanOrEqual(0);
  });
});
