import { randomUUID } from 'node:crypto';
import { toJsonEachRow } from '../../src/infrastructure/clickhouse/clickhouse.format';
import {
  type ClickHouseExecutor,
  ClickHouseUnavailableError,
} from '../../src/infrastructure/clickhouse/clickhouse.port';
import { CALL_RECORDS } from '../../src/infrastructure/clickhouse/schema';
import { talkOf } from '../../src/calls/ingestion/call-record';
import { CallRow, EnrichedCallRecord, rowOf } from '../../src/calls/ingestion/call-record.row';
import { CallRecordInput, generateCalls } from '../lib/calls/call-generator';
import type { LoadResult, LoadSpec } from './analytics-messages';

const PROVIDERS = ['openai', 'elevenlabs', 'custom'] as const;

export interface BenchTrunk {
  id: string;
  name: string;
  provider: string;
}

/** Stable trunk ids and names: analytics take names from trunk_dimension, nothing else needs the trunks. */
export function benchTrunks(count: number): BenchTrunk[] {
  return Array.from({ length: count }, (_, k) => ({
    id: `conn_analyticsbench${String(k + 1).padStart(4, '0')}`,
    name: `Bench trunk ${k + 1}`,
    provider: PROVIDERS[k % PROVIDERS.length],
  }));
}

/**
 * What validation turns a generated record into, without validating: the generator's records are
 * valid by construction, and validation would cost as much again as generating them.
 */
export function enrich(
  r: CallRecordInput,
  accountId: string,
  provider: string,
  shortSipTrace: boolean,
): EnrichedCallRecord {
  const start = new Date(r.start_time);
  const end = r.end_time === undefined ? null : new Date(r.end_time);
  const trace = r.sip_trace ?? null;
  const duration = r.duration_seconds ?? (end ? Math.floor((end.getTime() - start.getTime()) / 1000) : 0);
  return {
    id: r.id,
    trunk_id: r.trunk_id,
    direction: r.direction,
    from: r.from,
    to: r.to,
    status: r.status,
    start_time: start,
    end_time: end,
    duration_seconds: duration,
    carrier_lag_ms: r.carrier_lag_ms ?? null,
    ai_latency_ms: r.ai_latency_ms ?? null,
    gateway_processing_ms: r.gateway_processing_ms ?? null,
    packet_loss_percent: r.packet_loss_percent ?? null,
    jitter_ms: r.jitter_ms ?? null,
    codec_used: r.codec_used ?? null,
    disconnect_reason: r.disconnect_reason ?? null,
    turns: (r.turns ?? []).map((t) => ({
      ...t,
      interrupted: t.interrupted ?? false,
      start_offset_ms: t.start_offset_ms ?? null,
    })),
    sip_trace: trace !== null && shortSipTrace ? trace.slice(0, Math.max(0, trace.indexOf('\n'))) : trace,
    mos: r.mos ?? null,
    ...talkOf({ status: r.status, duration_seconds: duration, end_time: end, answered_at: null, sip_code: null }),
    account_id: accountId,
    provider,
  };
}

/**
 * Generates the records and inserts them as the writer stores first versions (rowOf, sign 1, a
 * strictly increasing version from Date.now() µs), one INSERT per batch. The next batch is built
 * while the engine's thread inserts the previous one, so both cores work.
 */
export async function loadCalls(
  clickhouse: ClickHouseExecutor,
  spec: LoadSpec,
  progress: (message: string) => void,
): Promise<LoadResult> {
  const trunks = benchTrunks(spec.trunks);
  const batches = new RowBatches(spec, trunks);
  const started = performance.now();
  let inserted = 0;
  let inFlight: Promise<void> | null = null;
  let lastReport = started;
  for (let rows = batches.next(); rows.length > 0; rows = batches.next()) {
    if (inFlight) await inFlight;
    inFlight = insertBatch(clickhouse, rows, progress).then(() => void (inserted += rows.length));
    if (performance.now() - lastReport > 15_000) {
      lastReport = performance.now();
      progress(
        `load: ${batches.built.toLocaleString('en-US')}/${spec.calls.toLocaleString('en-US')} rows built, ${((lastReport - started) / 1000).toFixed(0)} s`,
      );
    }
  }
  if (inFlight) await inFlight;
  await insertTrunkDimension(clickhouse, spec.accountId, trunks);
  const jsonBytes = batches.sampled === 0 ? 0 : (batches.sampledBytes / batches.sampled) * inserted;
  return {
    rows: inserted,
    ms: performance.now() - started,
    jsonBytes,
    avgSipTraceBytes: inserted === 0 ? 0 : batches.traceBytes / inserted,
  };
}

const REFUSED_ATTEMPTS = 5;
const REFUSED_WAIT_MS = 5_000;

/**
 * One batch's INSERT. The embedded engine may refuse one for now (MEMORY_LIMIT_EXCEEDED at its cap
 * while background merges hold memory: seen at 710,000 and 6,040,000 rows), possibly after storing
 * the rows and feeding some views: the same text is sent again after a pause with the same
 * deduplication token, as the app's writer does (migration 9), so each block is stored once in
 * call_records and once in every view, whichever the refused attempt reached.
 */
async function insertBatch(
  clickhouse: ClickHouseExecutor,
  rows: CallRow[],
  progress: (message: string) => void,
): Promise<void> {
  const text = toJsonEachRow(rows);
  const deduplicationToken = randomUUID();
  for (let attempt = 1; ; attempt++) {
    try {
      await clickhouse.insertJsonEachRow(CALL_RECORDS.name, text, { deduplicationToken });
      return;
    } catch (error) {
      if (!(error instanceof ClickHouseUnavailableError) || attempt >= REFUSED_ATTEMPTS) throw error;
      const waitMs = REFUSED_WAIT_MS * attempt;
      progress(
        `load: INSERT of ${rows.length} rows refused; the same rows and token again in ${waitMs / 1000} s: ${error.message.slice(0, 160)}`,
      );
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }
}

/** Rows of call_records, `batchRows` at a time, with sizes sampled for the report. */
class RowBatches {
  built = 0;
  traceBytes = 0;
  sampled = 0;
  sampledBytes = 0;
  private version = 0;
  private readonly records: Iterator<CallRecordInput>;
  private readonly providers: Map<string, string>;

  constructor(
    private readonly spec: LoadSpec,
    trunks: BenchTrunk[],
  ) {
    this.providers = new Map(trunks.map((t) => [t.id, t.provider]));
    const generated = generateCalls({
      count: spec.calls,
      trunkIds: trunks.map((t) => t.id),
      from: new Date(spec.fromMs),
      to: new Date(spec.toMs),
      seed: spec.seed,
    });
    this.records = generated[Symbol.iterator]();
  }

  next(): CallRow[] {
    const now = new Date();
    const rows: CallRow[] = [];
    while (rows.length < this.spec.batchRows) {
      const next = this.records.next();
      if (next.done) break;
      // As CallRecordWriter.nextVersion: strictly increasing, from the clock in microseconds.
      this.version = Math.max(this.version + 1, Date.now() * 1000);
      const record = enrich(
        next.value,
        this.spec.accountId,
        this.providers.get(next.value.trunk_id)!,
        this.spec.shortSipTrace,
      );
      const row = rowOf(record, this.version, now);
      rows.push(row);
      this.traceBytes += row.sip_trace.length;
      if (++this.built % 1000 === 0) {
        this.sampled++;
        this.sampledBytes += Buffer.byteLength(JSON.stringify(row)) + 1;
      }
    }
    return rows;
  }
}

async function insertTrunkDimension(
  clickhouse: ClickHouseExecutor,
  accountId: string,
  trunks: BenchTrunk[],
): Promise<void> {
  const rows = trunks.map((t) => ({
    account_id: accountId,
    trunk_id: t.id,
    name: t.name,
    provider: t.provider,
    deleted: 0,
    version: 1,
  }));
  await clickhouse.insert('trunk_dimension', rows);
}
