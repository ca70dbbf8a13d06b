import { randomUUID } from 'node:crypto';
import { CALL_FEED_HORIZON, CALL_RECORDS, FEED_HORIZON_IDS } from '../../infrastructure/clickhouse/schema';
import { stringifyRow } from '../../infrastructure/clickhouse/clickhouse.format';
import { ClickHouseExecutor, ClickHouseUnavailableError } from '../../infrastructure/clickhouse/clickhouse.port';
import type { ClusterServices } from '../../infrastructure/cluster/cluster.port';
import { MutexTimeoutError, RedisMutex } from '../../infrastructure/cluster/redis.mutex';
import { DomainError } from '../../shared/domain-error';
import { callKey, previousVersions } from './call-record.previous';
import { rowLine } from './call-record.line';
import { chDateTime, EnrichedCallRecord, isoFromChDateTime } from './call-record.row';

/**
 * A record with its version and its row, rendered as a JSONEachRow line when it was submitted. The
 * line is kept as bytes: a Buffer's contents live outside the JS heap, so the garbage collector
 * does not copy kilobytes of row per record each time it moves the objects that wait for a flush.
 */
interface PendingRow {
  record: EnrichedCallRecord;
  version: number;
  line: Buffer;
}

/**
 * An INSERT the engine failed while unavailable (refused at its memory cap, timed out, crashed): it
 * may have stored rows in call_records and fed some views and not others. It is sent again, the
 * same text with the same deduplication token, before any other INSERT of this writer, so each of
 * its blocks ends up stored once everywhere (migration 9); only then does the next batch look up
 * previous versions, and so cancels only rows that every view has counted.
 */
interface Unfinished {
  text: Buffer;
  token: string;
  /** Its highest version, published to the feed's horizon once it is stored. */
  highest: number;
  hours: Map<string, number[]>;
}

interface Submission {
  rows: PendingRow[];
  bytes: number;
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
   * Bytes of rendered rows waiting at most, likewise: the rows live outside the JS heap, where no
   * heap limit bounds them, and a record may be 4 KB or 100 KB. A submission that finds the queue
   * empty is always taken (one request is at most 16 MiB of input).
   */
  maxQueuedBytes: number;
  /**
   * Runs each flush's read-previous-versions + INSERT alone among every writer of the table. One
   * process needs nothing more (its flushes are already one at a time); instances sharing a
   * ClickHouse server pass a Redis mutex, without which two of them could both cancel the same old
   * version of a call and both insert a new one: the call would be listed twice.
   */
  serialize?: <T>(critical: () => Promise<T>) => Promise<T>;
  /**
   * Awaited after each INSERT (returned or failed) and before its requests are answered: the hours
   * of each account it wrote rows into, cancel rows included (CALL_HOURS_WRITTEN). Must not throw.
   */
  hoursWritten?: (hours: ReadonlyMap<string, readonly number[]>) => Promise<void>;
  /**
   * How long an unfinished INSERT waits to be sent again when no new submission brings a flush
   * sooner; doubled after each failed attempt, up to 30 s.
   */
  resendDelayMs: number;
}

const DEFAULTS: WriterOptions = {
  maxBatchRows: 50_000,
  lingerMs: 5,
  maxQueuedRecords: 200_000,
  maxQueuedBytes: 64 * 1024 * 1024,
  resendDelayMs: 1_000,
};

const MAX_RESEND_DELAY_MS = 30_000;

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
 * holding its rows returned: acknowledged means durable. Each record gets its version and its row
 * text when it is submitted, while the engine is busy with the INSERT before, so a flush only
 * looks up previous versions and joins text: the engine waits for as little as possible.
 */
export class CallRecordWriter {
  private readonly queue: Submission[] = [];
  private queued = 0;
  private queuedBytes = 0;
  private flushing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private lastVersion = 0;
  private unfinished: Unfinished | null = null;
  private resendTimer: NodeJS.Timeout | null = null;
  private resendDelayMs: number;
  private readonly options: WriterOptions;

  constructor(
    private readonly clickhouse: ClickHouseExecutor,
    options: Partial<WriterOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    this.resendDelayMs = this.options.resendDelayMs;
  }

  submit(records: EnrichedCallRecord[]): Promise<void> {
    if (records.length === 0) return Promise.resolve();
    if (this.queued + records.length > this.options.maxQueuedRecords) return Promise.reject(saturated());
    const rows = this.render(records);
    const bytes = rows.reduce((sum, row) => sum + row.line.length, 0);
    if (this.queued > 0 && this.queuedBytes + bytes > this.options.maxQueuedBytes) return Promise.reject(saturated());
    return new Promise((resolve, reject) => {
      this.queue.push({ rows, bytes, resolve, reject });
      this.queued += records.length;
      this.queuedBytes += bytes;
      this.schedule();
    });
  }

  /** Versions are taken in submission order, so a later submission of a call wins. */
  private render(records: EnrichedCallRecord[]): PendingRow[] {
    const now = new Date();
    return records.map((record) => {
      const version = this.nextVersion();
      return { record, version, line: rowLine(record, version, now) };
    });
  }

  /** Writes everything queued (graceful shutdown), and tries an unfinished INSERT once more. */
  async drain(): Promise<void> {
    while (this.queue.length > 0 || this.flushing) {
      if (this.flushing) await this.flushing;
      else await this.flush();
    }
    if (this.unfinished) await this.flush();
    this.clearResend();
  }

  /** Whether an INSERT failed while the engine was unavailable and has not been completed since. */
  get hasUnfinished(): boolean {
    return this.unfinished !== null;
  }

  get depth(): number {
    return this.queued;
  }

  /** Bytes of rendered rows waiting for an INSERT. */
  get depthBytes(): number {
    return this.queuedBytes;
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
      else if (this.unfinished) this.scheduleResend();
    });
    return this.flushing;
  }

  /** A flush with nothing queued, only to complete the unfinished INSERT; backs off while it fails. */
  private scheduleResend(): void {
    if (this.resendTimer) return;
    const delay = this.resendDelayMs;
    this.resendDelayMs = Math.min(delay * 2, MAX_RESEND_DELAY_MS);
    this.resendTimer = setTimeout(() => {
      this.resendTimer = null;
      if (this.unfinished && !this.flushing && !this.timer) void this.flush();
    }, delay);
    this.resendTimer.unref();
  }

  private clearResend(): void {
    if (this.resendTimer) clearTimeout(this.resendTimer);
    this.resendTimer = null;
  }

  private take(): Submission[] {
    const batch: Submission[] = [];
    let rows = 0;
    while (
      this.queue.length > 0 &&
      (batch.length === 0 || rows + this.queue[0].rows.length <= this.options.maxBatchRows)
    ) {
      const next = this.queue.shift()!;
      rows += next.rows.length;
      this.queued -= next.rows.length;
      this.queuedBytes -= next.bytes;
      batch.push(next);
    }
    return batch;
  }

  private async write(batch: Submission[]): Promise<void> {
    const touched = new HoursTouched();
    try {
      const latest = latestPerCall(batch.flatMap((s) => s.rows));
      const serialize = this.options.serialize ?? ((critical) => critical());
      await serialize(async () => {
        await this.finishUnfinished(touched);
        if (latest.length > 0) await this.replace(latest, touched);
      });
      await this.told(touched);
      for (const submission of batch) submission.resolve();
    } catch (error) {
      // A failed INSERT may still have stored some of its parts: what depends on them is told too.
      await this.told(touched);
      const refused = error instanceof MutexTimeoutError ? saturated() : error;
      for (const submission of batch) submission.reject(refused);
    }
  }

  private async told(touched: HoursTouched): Promise<void> {
    if (!this.options.hoursWritten || touched.byAccount.size === 0) return;
    const hours = touched.take();
    await this.options.hoursWritten(hours).catch(() => undefined);
  }

  /** Sends the unfinished INSERT again (see Unfinished); throws, keeping it, while the engine refuses it. */
  private async finishUnfinished(touched: HoursTouched): Promise<void> {
    const unfinished = this.unfinished;
    if (!unfinished) return;
    try {
      await this.clickhouse.insertJsonEachRow(CALL_RECORDS.name, unfinished.text, {
        deduplicationToken: unfinished.token,
      });
    } catch (error) {
      // Text the engine refused as bad will never be taken: keeping it would fail every flush.
      if (!(error instanceof ClickHouseUnavailableError)) this.unfinished = null;
      throw error;
    }
    this.unfinished = null;
    this.resendDelayMs = this.options.resendDelayMs;
    this.clearResend();
    touched.merge(unfinished.hours);
    await publishHorizon(this.clickhouse, unfinished.highest);
  }

  /**
   * Cancels the stored version of each call and inserts the new one, in one INSERT, then publishes
   * the batch's highest version to the sync feed's horizon (006-call-feed.ts). Every version is
   * raised above the published horizon first, so the feed's order (version) is the order of
   * storage even across instances whose clocks differ or a process restarted with its clock behind.
   */
  private async replace(latest: PendingRow[], touched: HoursTouched): Promise<void> {
    const [previous, horizon] = await Promise.all([
      previousVersions(
        this.clickhouse,
        latest.map((row) => row.record),
      ),
      publishedHorizon(this.clickhouse),
    ]);
    const lines: Buffer[] = [];
    let highest = horizon;
    for (const row of latest) {
      const old = previous.get(keyOf(row.record));
      if (old) lines.push(jsonLine({ ...old, sign: -1 }));
      if (old) touched.add(old.account_id, old.start_time);
      touched.add(row.record.account_id, chDateTime(row.record.start_time));
      // Above the stored version even when another instance's clock runs ahead of ours, and above
      // every version the feed has already served.
      const floor = Math.max(old ? Number(old.version) + 1 : 0, horizon + 1);
      const version = Math.max(floor, row.version);
      lines.push(version > row.version ? rowLine(row.record, version, new Date()) : row.line);
      highest = Math.max(highest, version);
    }
    const text = Buffer.concat(lines);
    const token = randomUUID();
    // Raised first: a failed INSERT may have stored its versions, and later ones must pass them.
    this.lastVersion = Math.max(this.lastVersion, highest);
    try {
      await this.clickhouse.insertJsonEachRow(CALL_RECORDS.name, text, { deduplicationToken: token });
    } catch (error) {
      if (error instanceof ClickHouseUnavailableError)
        this.unfinished = { text, token, highest, hours: touched.snapshot() };
      throw error;
    }
    await publishHorizon(this.clickhouse, highest);
  }

  /** Strictly increasing across this process: later submissions win. */
  private nextVersion(): number {
    this.lastVersion = Math.max(this.lastVersion + 1, Date.now() * 1000);
    return this.lastVersion;
  }
}

const HOUR_MS = 3_600_000;

/** The hours of each account an INSERT writes rows into, by their first millisecond. */
class HoursTouched {
  readonly byAccount = new Map<string, Set<number>>();

  /** `startTime` as stored (DateTime64 text, UTC). */
  add(accountId: string, startTime: string): void {
    const hour = Math.floor(Date.parse(isoFromChDateTime(startTime)) / HOUR_MS) * HOUR_MS;
    let hours = this.byAccount.get(accountId);
    if (!hours) this.byAccount.set(accountId, (hours = new Set()));
    hours.add(hour);
  }

  merge(hours: ReadonlyMap<string, readonly number[]>): void {
    for (const [account, list] of hours) {
      let own = this.byAccount.get(account);
      if (!own) this.byAccount.set(account, (own = new Set()));
      for (const hour of list) own.add(hour);
    }
  }

  /** The hours so far, kept. */
  snapshot(): Map<string, number[]> {
    return new Map([...this.byAccount].map(([account, hours]) => [account, [...hours]]));
  }

  /** The hours so far, once: a later take() has nothing. */
  take(): Map<string, number[]> {
    const out = this.snapshot();
    this.byAccount.clear();
    return out;
  }
}

/** Publishes `version` to the sync feed's horizon once the INSERT holding it has returned. */
function publishHorizon(clickhouse: ClickHouseExecutor, version: number): Promise<void> {
  return clickhouse.insert(CALL_FEED_HORIZON.name, [{ id: FEED_HORIZON_IDS.calls, version }]);
}

/** The highest version the sync feed may serve: every INSERT up to it has returned. */
async function publishedHorizon(clickhouse: ClickHouseExecutor): Promise<number> {
  const [row] = await clickhouse.query<{ version: number | string }>(
    `SELECT max(version) AS version FROM ${CALL_FEED_HORIZON.name} WHERE id = {id:UInt8}`,
    { id: FEED_HORIZON_IDS.calls },
  );
  return Number(row?.version ?? 0);
}

const saturated = () =>
  new DomainError('service_unavailable', 'Ingestion is saturated; retry shortly', { retryAfterSeconds: 1 });

/** Within one INSERT, the last occurrence of a call wins. */
function latestPerCall(rows: PendingRow[]): PendingRow[] {
  const last = new Map<string, PendingRow>();
  for (const row of rows) last.set(keyOf(row.record), row);
  return [...last.values()];
}

/** A stored row (a cancel row) as a JSONEachRow line, written straight into its Buffer. */
function jsonLine(row: object): Buffer {
  const json = stringifyRow(row);
  const line = Buffer.allocUnsafe(Buffer.byteLength(json) + 1);
  line.write(json);
  line[line.length - 1] = 0x0a;
  return line;
}

const keyOf = (record: EnrichedCallRecord): string => callKey(record.account_id, record.id);
