import { ClickHouseExecutor } from '../infrastructure/clickhouse/clickhouse.port';
import type { ClusterServices } from '../infrastructure/cluster/cluster.port';
import { MutexTimeoutError, RedisMutex } from '../infrastructure/cluster/redis.mutex';
import { DomainError } from '../shared/domain-error';
import { CallRow, EnrichedCallRecord, rowOf } from './call-record.row';

interface Submission {
  records: EnrichedCallRecord[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

export interface WriterOptions {
  /** Rows per INSERT at most (whole submissions are never split). */
  maxBatchRows: number;
  /** How long the first waiting submission may wait for others to join its INSERT. */
  lingerMs: number;
  /** Records waiting at most; beyond, submissions are refused with 503 instead of growing memory. */
  maxQueuedRecords: number;
  /**
   * Runs each flush's read-previous-versions + INSERT alone among every writer of the table. One
   * process needs nothing more (its flushes are already one at a time); instances sharing a
   * ClickHouse server pass a Redis mutex, without which two of them could both cancel the same old
   * version of a call and both insert a new one: the call would be listed twice.
   */
  serialize?: <T>(critical: () => Promise<T>) => Promise<T>;
}

const DEFAULTS: WriterOptions = { maxBatchRows: 50_000, lingerMs: 5, maxQueuedRecords: 200_000 };

/** Writer options for this deployment: a cross-instance mutex when instances share ClickHouse. */
export function sharedWriterOptions(
  clickhouse: ClickHouseExecutor,
  cluster: ClusterServices | null,
): Partial<WriterOptions> {
  if (!cluster || clickhouse.kind !== 'server') return {};
  const mutex = new RedisMutex(cluster.redis, `${cluster.namespace}lock:call-records`);
  return { serialize: (critical) => mutex.withLock(critical) };
}

/**
 * Micro-batches concurrent ingestion requests into large INSERTs, one at a time (so two versions
 * of one call are never decided concurrently). A submission resolves only after the INSERT
 * holding its rows returned: acknowledged means durable.
 */
export class CallRecordWriter {
  private readonly queue: Submission[] = [];
  private queued = 0;
  private flushing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private lastVersion = 0;
  private readonly options: WriterOptions;

  constructor(
    private readonly clickhouse: ClickHouseExecutor,
    options: Partial<WriterOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  submit(records: EnrichedCallRecord[]): Promise<void> {
    if (records.length === 0) return Promise.resolve();
    if (this.queued + records.length > this.options.maxQueuedRecords) {
      return Promise.reject(
        new DomainError('service_unavailable', 'Ingestion is saturated; retry shortly', { retryAfterSeconds: 1 }),
      );
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ records, resolve, reject });
      this.queued += records.length;
      this.schedule();
    });
  }

  /** Writes everything queued (graceful shutdown). */
  async drain(): Promise<void> {
    while (this.queue.length > 0 || this.flushing) {
      if (this.flushing) await this.flushing;
      else await this.flush();
    }
  }

  get depth(): number {
    return this.queued;
  }

  private schedule(): void {
    if (this.flushing || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, this.options.lingerMs);
  }

  private flush(): Promise<void> {
    const batch = this.take();
    this.flushing = this.write(batch).finally(() => {
      this.flushing = null;
      if (this.queue.length > 0) this.schedule();
    });
    return this.flushing;
  }

  private take(): Submission[] {
    const batch: Submission[] = [];
    let rows = 0;
    while (
      this.queue.length > 0 &&
      (batch.length === 0 || rows + this.queue[0].records.length <= this.options.maxBatchRows)
    ) {
      const next = this.queue.shift()!;
      rows += next.records.length;
      this.queued -= next.records.length;
      batch.push(next);
    }
    return batch;
  }

  private async write(batch: Submission[]): Promise<void> {
    try {
      const latest = latestPerCall(batch.flatMap((s) => s.records));
      const serialize = this.options.serialize ?? ((critical) => critical());
      await serialize(() => this.replace(latest));
      for (const submission of batch) submission.resolve();
    } catch (error) {
      const refused =
        error instanceof MutexTimeoutError
          ? new DomainError('service_unavailable', 'Ingestion is saturated; retry shortly', { retryAfterSeconds: 1 })
          : error;
      for (const submission of batch) submission.reject(refused);
    }
  }

  /** Cancels the stored version of each call and inserts the new one, in one INSERT. */
  private async replace(latest: EnrichedCallRecord[]): Promise<void> {
    const previous = await this.previousVersions(latest);
    const now = new Date();
    const rows: CallRow[] = [];
    for (const record of latest) {
      const old = previous.get(`${record.account_id}\u0000${record.id}`);
      if (old) rows.push({ ...old, sign: -1 });
      // Above the stored version even when another instance's clock runs ahead of ours.
      rows.push(rowOf(record, Math.max(this.nextVersion(), old ? Number(old.version) + 1 : 0), now));
    }
    await this.clickhouse.insert('call_records', rows);
  }

  /**
   * The stored version of each call of the batch, to cancel it in the same INSERT. Two steps,
   * because FINAL does not move WHERE to PREWHERE: it would read and merge every column of the
   * account's rows on each flush, a cost that grows with the table. First which ids exist at all
   * (the call_id column only, no FINAL; usually none); then the live version of those few, with
   * call_id in PREWHERE, which is safe under FINAL because call_id is part of the sorting key, so
   * whole collapsing groups are kept or dropped together.
   */
  private async previousVersions(records: EnrichedCallRecord[]): Promise<Map<string, CallRow>> {
    const byAccount = new Map<string, string[]>();
    for (const r of records) {
      const ids = byAccount.get(r.account_id);
      if (ids) ids.push(r.id);
      else byAccount.set(r.account_id, [r.id]);
    }
    const found = new Map<string, CallRow>();
    for (const [accountId, ids] of byAccount) {
      const existing = await this.clickhouse.query<{ call_id: string }>(
        'SELECT DISTINCT call_id FROM call_records WHERE account_id = {account:String} AND call_id IN {ids:Array(String)}',
        { account: accountId, ids },
      );
      if (existing.length === 0) continue;
      const rows = await this.clickhouse.query<CallRow>(
        'SELECT * EXCEPT (sign) FROM call_records FINAL PREWHERE call_id IN {ids:Array(String)} WHERE account_id = {account:String}',
        { account: accountId, ids: existing.map((row) => row.call_id) },
      );
      for (const row of rows) found.set(`${row.account_id}\u0000${row.call_id}`, { ...row, sign: 1 });
    }
    return found;
  }

  /** Strictly increasing across this process: later submissions win. */
  private nextVersion(): number {
    this.lastVersion = Math.max(this.lastVersion + 1, Date.now() * 1000);
    return this.lastVersion;
  }
}

/** Within one INSERT, the last occurrence of a call wins. */
function latestPerCall(records: EnrichedCallRecord[]): EnrichedCallRecord[] {
  const last = new Map<string, EnrichedCallRecord>();
  for (const r of records) last.set(`${r.account_id}\u0000${r.id}`, r);
  return [...last.values()];
}
