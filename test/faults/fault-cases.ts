import { SETTLE_DEADLINE_MS } from '../support/deadlines';
import { EVENT_SCHEMA, type FaultEnvironment } from './fault-env';
import type { FaultSpec, Injected } from './fault-case';
import { READ_MODEL_EVENT_TYPES } from '../../src/read-models/read-models.service';

export const OUTAGE_MS = 3000;
/** PROJECTION_BATCH_SIZE of the replay case: the few hundred events of a run span many batches. */
const REPLAY_BATCH_SIZE = 10;
/** The read-model runner's checkpoint and applied-events counter (REDIS_NAMESPACE + "rm:"). */
const CHECKPOINT = 'faults:rm:checkpoint:read-models';
const APPLIED = 'faults:rm:projection-stats:read-models';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Lines the service wrote from `offset` on that match `pattern`. */
function countLogs(env: FaultEnvironment, offset: number, pattern: RegExp): number {
  return env.service
    .output()
    .slice(offset)
    .split('\n')
    .filter((line) => pattern.test(line)).length;
}

async function killAndRestartService(env: FaultEnvironment): Promise<Injected> {
  const from = Date.now();
  await env.killService();
  await env.startService();
  return { window: [from, Date.now()] };
}

/** The value of a bulk-string reply ("$3\r\nabc"); null for a nil reply. */
function bulkString(reply: string): string | null {
  if (reply === '$-1') return null;
  const value = /^\$\d+\r\n(.*)$/s.exec(reply);
  if (!value) throw new Error(`not a bulk-string reply: ${reply}`);
  return value[1];
}

/** The read-model checkpoint; null while unset or while Redis does not answer yet. */
async function checkpointOrNull(env: FaultEnvironment): Promise<string | null> {
  try {
    return bulkString(await env.redis.command('GET', CHECKPOINT));
  } catch {
    return null;
  }
}

/**
 * Redis loses everything (no persistence), the service (running with REPLAY_BATCH_SIZE) starts
 * replaying every event into it, and is SIGKILLed as soon as the first replayed batch is written:
 * the crash lands between batches, with the next one being applied. Throws when the kill missed
 * the replay: the killed service had already applied every event stored when Redis lost them.
 */
async function killDuringReplay(env: FaultEnvironment): Promise<Injected> {
  const from = Date.now();
  await env.redis.kill();
  // Of the types the runner applies and counts (name reservations are passed over).
  const [{ events }] = await env.postgres.query<{ events: string }>(
    `SELECT count(*) AS events FROM ${EVENT_SCHEMA}.events WHERE type = ANY ($1::text[])`,
    [READ_MODEL_EVENT_TYPES],
  );
  await env.redis.up();
  const started = Date.now();
  // The checkpoint reappears with the first replayed batch.
  while ((await checkpointOrNull(env)) === null) {
    if (Date.now() - started > SETTLE_DEADLINE_MS)
      throw new Error(`the replay did not start within ${SETTLE_DEADLINE_MS} ms`);
    await sleep(5);
  }
  await env.killService();
  // Counted in the same script as each batch's writes, from zero since Redis lost everything.
  const applied = bulkString(await env.redis.command('HGET', APPLIED, 'events'));
  await env.startService();
  const [replayed, stored] = [Number(applied), Number(events)];
  if (applied === null || replayed >= stored)
    throw new Error(`the kill missed the replay: ${applied ?? 'no'} events replayed of the ${stored} stored`);
  return {
    window: [from, Date.now()],
    evidence: `killed after ${replayed} of ${stored} stored events replayed, batches of ${REPLAY_BATCH_SIZE}`,
  };
}

/** Until the service has forked a new engine (it does so on the next ClickHouse call). */
async function killChdbWorker(env: FaultEnvironment): Promise<Injected> {
  const victim = env.chdbWorkerPid();
  if (victim === null) throw new Error('no chDB process under the service');
  const from = Date.now();
  process.kill(victim, 'SIGKILL');
  for (;;) {
    const successor = env.chdbWorkerPid();
    if (successor !== null && successor !== victim) break;
    if (Date.now() - from > SETTLE_DEADLINE_MS) throw new Error(`no new chDB process within ${SETTLE_DEADLINE_MS} ms`);
    await sleep(20);
  }
  return { window: [from, Date.now()] };
}

export const FAULT_CASES: FaultSpec[] = [
  {
    name: 'redis restart',
    injected: `Redis SIGKILL, ${OUTAGE_MS / 1000} s down, restarted empty (no persistence)`,
    async inject(env) {
      const from = Date.now();
      await env.redis.kill();
      await sleep(OUTAGE_MS);
      await env.redis.up();
      return { window: [from, Date.now()] };
    },
  },
  {
    name: 'postgres restart',
    injected: `PostgreSQL stop -m immediate, ${OUTAGE_MS / 1000} s down, crash recovery on start`,
    async inject(env) {
      const from = Date.now();
      await env.postgres.down('immediate');
      await sleep(OUTAGE_MS);
      await env.postgres.up();
      return { window: [from, Date.now()] };
    },
  },
  {
    name: 'kill during commands',
    injected: 'service SIGKILL under trunk writes, restarted',
    mix: { create: 3, update: 4, rotate: 2, ingest: 0, read: 1 },
    serviceDown: true,
    inject: killAndRestartService,
  },
  {
    name: 'kill during ingestion',
    injected: 'service SIGKILL under call ingestion, restarted',
    mix: { create: 0, update: 1, rotate: 0, ingest: 8, read: 1 },
    serviceDown: true,
    inject: killAndRestartService,
  },
  {
    name: 'projection crash mid-batch',
    injected: `the service's Redis connections cut (CLIENT KILL) every 50 ms for ${OUTAGE_MS / 1000} s`,
    mix: { create: 4, update: 4, rotate: 2, ingest: 1, read: 1 },
    async inject(env) {
      const offset = env.service.output().length;
      const from = Date.now();
      while (Date.now() - from < OUTAGE_MS) {
        await env.redis.command('CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes').catch(() => undefined);
        await sleep(50);
      }
      const failed = countLogs(env, offset, /handler failed, retrying the same batch/);
      const leases = countLogs(env, offset, /lease (lost|expired|released)/);
      return {
        window: [from, Date.now()],
        evidence: `${failed} batch writes failed and were retried, ${leases} lease losses`,
      };
    },
  },
  {
    name: 'chdb engine killed',
    injected: 'the embedded ClickHouse (chDB) process SIGKILLed under ingestion and analytics',
    mix: { create: 0, update: 1, rotate: 0, ingest: 6, read: 3 },
    inject: killChdbWorker,
  },
  {
    name: 'kill during replay',
    injected: 'Redis restarted empty, then the service SIGKILLed mid-replay, restarted',
    mix: { create: 3, update: 3, rotate: 1, ingest: 2, read: 1 },
    serviceDown: true,
    serviceEnv: { PROJECTION_BATCH_SIZE: String(REPLAY_BATCH_SIZE) },
    inject: killDuringReplay,
  },
];
