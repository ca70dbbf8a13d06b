import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { createEventStore } from '../../src/infrastructure/event-store/event-store.factory';
import {
  type EventStore,
  type ExpectedVersion,
  VersionConflictError,
} from '../../src/infrastructure/event-store/event-store.port';
import { dropSchema } from '../lib/cleanups';
import { Percentiles } from '../lib/percentiles';

export interface AppendBenchOptions {
  url: string;
  writers: number;
  seconds: number;
}

export interface AppendBenchResult {
  appendsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Appends that stored an event (conflicted attempts are counted apart). */
  appends: number;
  conflicts: number;
}

const SHARED_STREAMS = 4;

export interface BaselineResult {
  commitsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

interface Tally {
  latenciesMs: Percentiles;
  conflicts: number;
}

const emptyTally = (): Tally => ({ latenciesMs: new Percentiles(), conflicts: 0 });

/**
 * A command workload: each writer alternates single-event appends to its own stream and to one
 * of a few shared streams, always with the exact expected revision it last saw; a conflict
 * updates it from the error and retries. Runs in a throwaway schema, dropped afterwards.
 */
export async function benchEventStoreAppends(options: AppendBenchOptions): Promise<AppendBenchResult> {
  const schema = `bench_es_${randomBytes(6).toString('hex')}`;
  const dataDir = await mkdtemp(join(tmpdir(), 'trunkline-bench-'));
  let store: EventStore | undefined;
  try {
    store = await createEventStore({ url: options.url, schema, dataDir, poolSize: options.writers + 2 });
    await runWriters(store, options.writers, 1, emptyTally()); // warm-up: plans, caches
    const measured = emptyTally();
    const started = process.hrtime.bigint();
    await runWriters(store, options.writers, options.seconds, measured);
    return summarise(measured, Number(process.hrtime.bigint() - started) / 1e9);
  } finally {
    await store?.close();
    await dropSchema(options.url, schema);
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function runWriters(store: EventStore, writers: number, seconds: number, tally: Tally): Promise<void> {
  const deadline = process.hrtime.bigint() + BigInt(Math.round(seconds * 1e9));
  const run = randomUUID().slice(0, 8);
  await Promise.all(Array.from({ length: writers }, (_, w) => writer(store, `${run}-${w}`, w, deadline, tally)));
}

async function writer(store: EventStore, name: string, index: number, deadline: bigint, tally: Tally): Promise<void> {
  const known = new Map<string, ExpectedVersion>();
  for (let i = 0; process.hrtime.bigint() < deadline; i += 1) {
    const stream = i % 2 === 0 ? `trunk-${name}` : `account-shared-${(index + i) % SHARED_STREAMS}`;
    const event = {
      id: randomUUID(),
      type: 'SipPasswordRotated',
      data: payload(i),
      metadata: { actor: `key_${index}`, correlation_id: randomUUID() },
    };
    for (;;) {
      const expected = known.get(stream) ?? 'no_stream';
      const started = process.hrtime.bigint();
      try {
        const result = await store.append(stream, [event], expected);
        tally.latenciesMs.record(Number(process.hrtime.bigint() - started) / 1e6);
        known.set(stream, result.nextExpectedVersion);
        break;
      } catch (error) {
        if (!(error instanceof VersionConflictError)) throw error;
        tally.conflicts += 1;
        known.set(stream, error.actual === 'unknown' ? await lastRevision(store, stream) : error.actual);
      }
    }
  }
}

async function lastRevision(store: EventStore, stream: string): Promise<ExpectedVersion> {
  const events = await store.readStream(stream);
  return events.length === 0 ? 'no_stream' : events[events.length - 1].revision;
}

const payload = (i: number) => ({
  trunkId: `trk_${randomBytes(12).toString('hex')}`,
  rotatedAt: new Date().toISOString(),
  passwordHash: randomBytes(32).toString('base64'),
  sequence: i,
  labels: { region: 'eu-west', tier: 'production' },
});

function summarise(tally: Tally, seconds: number): AppendBenchResult {
  const round = (n: number): number => Math.round(n * 100) / 100;
  const count = tally.latenciesMs.count;
  return {
    appendsPerSecond: Math.round(count / seconds),
    p50Ms: round(tally.latenciesMs.at(50)),
    p99Ms: round(tally.latenciesMs.at(99)),
    appends: count,
    conflicts: tally.conflicts,
  };
}

/**
 * Same-run baseline: the same writers committing one plain single-row INSERT each. The store
 * cannot beat it (both are bound by commit/WAL flush); the gap is the store's own cost.
 */
export async function benchBaselineInserts(options: AppendBenchOptions): Promise<BaselineResult> {
  const table = `bench_baseline_${randomBytes(6).toString('hex')}`;
  const pool = new Pool({ connectionString: options.url, max: options.writers });
  await pool.query(`CREATE TABLE "${table}" (id bigserial PRIMARY KEY, body jsonb NOT NULL)`);
  try {
    const measured = emptyTally();
    const deadline = process.hrtime.bigint() + BigInt(Math.round(options.seconds * 1e9));
    const started = process.hrtime.bigint();
    const insert = { name: 'baseline_insert', text: `INSERT INTO "${table}" (body) VALUES ($1)` };
    await Promise.all(
      Array.from({ length: options.writers }, async (_, w) => {
        for (let i = 0; process.hrtime.bigint() < deadline; i += 1) {
          const t0 = process.hrtime.bigint();
          await pool.query({ ...insert, values: [JSON.stringify(payload(w * 1e6 + i))] });
          measured.latenciesMs.record(Number(process.hrtime.bigint() - t0) / 1e6);
        }
      }),
    );
    const { appendsPerSecond, p50Ms, p99Ms } = summarise(measured, Number(process.hrtime.bigint() - started) / 1e9);
    return { commitsPerSecond: appendsPerSecond, p50Ms, p99Ms };
  } finally {
    await pool.query(`DROP TABLE IF EXISTS "${table}"`);
    await pool.end();
  }
}
