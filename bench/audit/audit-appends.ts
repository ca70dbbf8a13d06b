import { randomBytes, randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { Pool } from 'pg';
import { migrateAuditLog } from '../../src/audit/read/sql.audit-log';
import { createEventStore } from '../../src/infrastructure/event-store/event-store.factory';
import type { EventMetadata, NewEvent } from '../../src/infrastructure/event-store/event-store.port';
import { PostgresEventStore } from '../../src/infrastructure/event-store/postgres/postgres.event-store';
import {
  checkSchemaName,
  createSchema,
  searchPathOption,
} from '../../src/infrastructure/event-store/postgres/event-store.sql';
import { PgPoolSqlClient } from '../../src/infrastructure/event-store/postgres/sql-client';
import { type Cleanups, dropSchema } from '../lib/cleanups';
import { median, Percentiles } from '../lib/percentiles';
import { PRE_CHAIN_APPEND, PRE_CHAIN_DDL } from './pre-chain-schema';

export interface AppendSide {
  appendsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

export interface AppendComparison {
  writers: number;
  seconds: number;
  rounds: number;
  /** Per round, alternating: the store before the chain, then today's. */
  unchained: AppendSide[];
  chained: AppendSide[];
  ratio: number;
}

type Append = (stream: string, expected: number | null, event: BenchEvent) => Promise<void>;
type BenchEvent = NewEvent & { data: object; metadata: EventMetadata };

/** A command's event as an account's trunk writes it: some text, ids, a sealed secret. */
export const benchEvent = (accountId: string, i: number): BenchEvent => ({
  id: randomUUID(),
  type: 'SipPasswordRotated',
  data: {
    trunk_id: `conn_${randomBytes(12).toString('hex')}`,
    account_id: accountId,
    sip_username: `bench-line-${i % 1000}`,
    sip_password: {
      v: 1,
      alg: 'A256GCM',
      iv: randomBytes(12).toString('base64'),
      ct: randomBytes(24).toString('base64'),
      tag: randomBytes(16).toString('base64'),
    },
    rotated_at: new Date().toISOString(),
  },
  metadata: { actor: 'key_bench', correlation_id: randomUUID(), source_address: '127.0.0.1' },
});

/**
 * The append cost of the chain, same run: writers append one event at a time, each to its own
 * stream with the exact expected revision, through today's store and through the SQL of the store
 * before the chain (bench/audit/pre-chain-schema.ts) in a schema of its own, rounds alternating.
 * Both schemas carry the audit log's account index, so the difference is the chain alone.
 */
export async function compareAppends(
  url: string,
  options: { writers: number; seconds: number; rounds: number },
  cleanups: Cleanups,
): Promise<AppendComparison> {
  const suffix = randomBytes(5).toString('hex');
  const chainedSchema = checkSchemaName(`bench_chain_${suffix}`);
  const plainSchema = checkSchemaName(`bench_plain_${suffix}`);
  cleanups.add(`drop schema ${chainedSchema}`, () => dropSchema(url, chainedSchema));
  cleanups.add(`drop schema ${plainSchema}`, () => dropSchema(url, plainSchema));
  // Migrated by the factory, then appended through a store without cross-process NOTIFY: the
  // pre-chain side below sends none either, so the two differ by the chain alone.
  await (await createEventStore({ url, schema: chainedSchema, dataDir: tmpdir(), poolSize: 1 })).close();
  const chainedPool = new Pool({
    connectionString: url,
    max: options.writers + 2,
    options: searchPathOption(chainedSchema),
  });
  const store = new PostgresEventStore(new PgPoolSqlClient(chainedPool));
  cleanups.add('close the chained store', () => store.close());
  await migrateAuditLog(store.sql);
  const pool = await preChainPool(url, plainSchema, options.writers + 2);
  cleanups.add('close the pre-chain pool', () => pool.end());
  const chainedAppend: Append = async (stream, expected, event) =>
    void (await store.append(stream, [event], expected ?? 'no_stream'));
  const plainAppend: Append = async (stream, expected, event) =>
    void (await pool.query({
      name: 'pre_chain_append',
      text: PRE_CHAIN_APPEND,
      values: [stream, expected === null ? 'no_stream' : 'revision', expected, JSON.stringify([event])],
    }));
  await runWriters(chainedAppend, options.writers, 1); // warm-up: plans, caches, JIT
  await runWriters(plainAppend, options.writers, 1);
  const unchained: AppendSide[] = [];
  const chained: AppendSide[] = [];
  for (let round = 0; round < options.rounds; round += 1) {
    unchained.push(await runWriters(plainAppend, options.writers, options.seconds));
    chained.push(await runWriters(chainedAppend, options.writers, options.seconds));
  }
  const rate = (sides: AppendSide[]) => median(sides.map((s) => s.appendsPerSecond));
  return { ...options, unchained, chained, ratio: rate(chained) / rate(unchained) };
}

async function preChainPool(url: string, schema: string, max: number): Promise<Pool> {
  const setup = new Pool({ connectionString: url, max: 1 });
  await setup.query(createSchema(schema));
  await setup.end();
  const pool = new Pool({ connectionString: url, max, options: searchPathOption(schema) });
  for (const ddl of PRE_CHAIN_DDL) await pool.query(ddl);
  await pool.query(
    `CREATE INDEX IF NOT EXISTS events_account_position ON events ((data->>'account_id'), transaction_id, global_position)`,
  );
  return pool;
}

async function runWriters(append: Append, writers: number, seconds: number): Promise<AppendSide> {
  const latencies = new Percentiles();
  const deadline = process.hrtime.bigint() + BigInt(Math.round(seconds * 1e9));
  const run = randomUUID().slice(0, 8);
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      const stream = `trunk-bench-${run}-${w}`;
      for (let i = 0; process.hrtime.bigint() < deadline; i += 1) {
        const t0 = process.hrtime.bigint();
        await append(stream, i === 0 ? null : i - 1, benchEvent('acct_bench_appends', i));
        latencies.record(Number(process.hrtime.bigint() - t0) / 1e6);
      }
    }),
  );
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    appendsPerSecond: Math.round(latencies.count / elapsed),
    p50Ms: round(latencies.at(50)),
    p99Ms: round(latencies.at(99)),
  };
}
